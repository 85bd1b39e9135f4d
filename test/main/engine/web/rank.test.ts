import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { bm25Scores, rankPassages, RANKER, relevanceScores } from '../../../../src/main/engine/web'
import { FEATURE_NAMES, passageFeatures } from '../../../../src/main/engine/web/rankFeatures'
import {
  crossValidate,
  featured,
  foldsOf,
  measureRanking,
  readClimateFever,
  readGroups,
  trainRanker,
  type Group,
} from '../../../../eval/training/evidence'

const CLAIM = 'Queen Victoria chose Ottawa as the capital in 1857.'

describe('the shipped ranking', () => {
  it('puts the passage that answers the claim first and the one that shares nothing last', () => {
    const passages = [
      { text: 'Toronto is the largest city in Canada.', url: 'a' },
      { text: 'Ottawa was chosen as the capital of Canada by Queen Victoria in 1857.', url: 'b' },
      { text: 'Ottawa has cold winters and a river through its centre.', url: 'c' },
    ]
    const ranked = rankPassages(CLAIM, passages)
    expect(ranked.map((passage) => passage.url)).toEqual(['b', 'c', 'a'])
    expect(ranked.map((passage) => passage.score)).toEqual(
      [1, 2, 0].map(
        (i) =>
          relevanceScores(
            CLAIM,
            passages.map((passage) => passage.text),
          )[i],
      ),
    )
  })

  it('ranks a reference-list entry below prose with the same words', () => {
    const [reference, prose] = relevanceScores(CLAIM, [
      '^ "Queen Victoria chose Ottawa as the capital in 1857". Retrieved 2020-01-01. Archived from the original.',
      'Queen Victoria chose Ottawa as the capital in 1857, after a long quarrel between the cities.',
    ])
    expect(RANKER.weights.debris).toBeLessThan(0)
    expect(prose).toBeGreaterThan(reference as number)
  })

  it('prefers the passage that repeats the claim’s number', () => {
    const [other, same] = relevanceScores('The Eiffel Tower was completed in 1889.', [
      'The Eiffel Tower was completed in 1887, two years before the fair opened.',
      'The Eiffel Tower was completed in 1889, two years after work began.',
    ])
    expect(same).toBeGreaterThan(other as number)
  })

  it('gives one feature row per passage, as many values as there are features', () => {
    const rows = passageFeatures(CLAIM, ['one', 'two', ''])
    expect(rows).toHaveLength(3)
    for (const row of rows) expect(row).toHaveLength(FEATURE_NAMES.length)
    expect(relevanceScores(CLAIM, [])).toEqual([])
  })
})

describe('plain BM25', () => {
  it('scores a passage without the words 0 and more occurrences higher', () => {
    const [none, once, twice] = bm25Scores('capital', ['no match here', 'a capital city', 'capital, capital'])
    expect(none).toBe(0)
    expect(once).toBeGreaterThan(0)
    expect(twice).toBeGreaterThan(once as number)
  })
})

describe('measuring a ranking', () => {
  const groups: Group[] = [
    { source: 's', claim: 'c1', passages: ['a', 'b', 'c', 'd'], relevant: [false, true, false, false] },
    { source: 's', claim: 'c2', passages: ['a', 'b'], relevant: [true, true] },
  ]

  it('scores the best ordering 1 and counts tied passages at their expected relevance', () => {
    const best = measureRanking(groups, (group) => group.relevant.map(Number))
    expect(best['precision@1']).toBe(1)
    expect(best['nDCG@3']).toBe(1)
    // All tied: the first group's top passage is relevant one time in four, the second's always.
    const tied = measureRanking(groups, (group) => group.passages.map(() => 0))
    expect(tied['precision@1']).toBeCloseTo((0.25 + 1) / 2)
    expect(tied['irrelevant in top 3']).toBeCloseTo((0.75 + 0) / 2)
    // The order of the file never counts: the same scores reversed give the same figures.
    const reversed = measureRanking(
      groups.map((group) => ({
        ...group,
        passages: [...group.passages].reverse(),
        relevant: [...group.relevant].reverse(),
      })),
      (group) => group.passages.map(() => 0),
    )
    expect(reversed).toEqual(tied)
  })
})

describe('training', () => {
  // Claims about made-up towns; the relevant passage of each repeats its words, the others are about a
  // different town, and the first candidate is always a reference-list entry naming the town.
  const towns = [
    'Avenby',
    'Brindle',
    'Corrow',
    'Dunmere',
    'Elsworth',
    'Farlow',
    'Gosmoor',
    'Hartle',
    'Ivel',
    'Jessop',
  ]
  const groups: Group[] = towns.map((town, i) => {
    const other = towns[(i + 1) % towns.length] as string
    return {
      source: i % 2 === 0 ? 'even' : 'odd',
      claim: `${town} was founded in ${1800 + i} by river traders.`,
      passages: [
        `^ "${town} history". Retrieved 2020-01-01. Archived from the original. ISBN 978-0-00-000000-${i}`,
        `${other} lies on a hill and has a market every week.`,
        `${town} was founded in ${1800 + i} by river traders who settled at the ford.`,
        `${other} was founded by farmers much later.`,
      ],
      relevant: [false, false, true, false],
    }
  })

  it('learns a ranking that puts each claim’s relevant passage first, also for claims it never saw', () => {
    const rows = featured(groups)
    const model = trainRanker(rows)
    expect(model.weights.debris).toBeLessThan(0)
    expect(Object.keys(model.weights).length).toBeGreaterThan(1)
    expect(
      measureRanking(rows, (group) => relevanceScores(group.claim, group.passages, model))['precision@1'],
    ).toBe(1)
    const judged = crossValidate(rows, 5, trainRanker)
    expect(measureRanking(rows, (_, i) => judged[i] as number[])['precision@1']).toBe(1)
  })

  it('is deterministic', () => {
    expect(trainRanker(featured(groups))).toEqual(trainRanker(featured(groups)))
  })

  it('splits each data set into folds of its own, never one claim into two folds', () => {
    // The same claim in both sets, and twice in one.
    const twice = { ...(groups[0] as Group), source: 'odd' }
    const all = [...groups, twice, { ...(groups[2] as Group) }]
    const folds = foldsOf(all, 5)
    for (const claim of new Set(all.map((group) => group.claim)))
      expect(new Set(folds.filter((_, i) => all[i]?.claim === claim)).size).toBe(1)
    // Each set's five claims land one in each fold.
    const spread = foldsOf(groups, 5)
    for (const source of ['even', 'odd'])
      expect(spread.filter((_, i) => groups[i]?.source === source).sort()).toEqual([0, 1, 2, 3, 4])
  })
})

describe('reading the data', () => {
  const folder = mkdtempSync(join(tmpdir(), 'rank-'))
  afterAll(() => rmSync(folder, { recursive: true, force: true }))

  it('groups Factcheck-Bench pairs by claim and leaves out claims with no relevant passage', () => {
    const file = join(folder, 'stance.jsonl')
    const rows = [
      { claim: 'A', evidence: 'a1', stance: 'irrelevant' },
      { claim: 'B', evidence: 'b1', stance: 'irrelevant' },
      { claim: 'A', evidence: 'a2', stance: 'partially-support' },
      { claim: 'A', evidence: 'a3', stance: 'refute' },
    ]
    writeFileSync(file, `${rows.map((row) => JSON.stringify(row)).join('\n')}\n\n`)
    expect(readGroups(file)).toEqual([
      { source: 'Factcheck-Bench', claim: 'A', passages: ['a1', 'a2', 'a3'], relevant: [false, true, true] },
    ])
  })

  it('reads CLIMATE-FEVER with NOT_ENOUGH_INFO sentences as irrelevant, keeping claims with both kinds', () => {
    const file = join(folder, 'climate.jsonl')
    const claim = (name: string, labels: string[]) =>
      JSON.stringify({
        claim: name,
        evidences: labels.map((label, i) => ({ evidence: `${name}${i}`, evidence_label: label })),
      })
    writeFileSync(
      file,
      [
        claim('mixed', ['SUPPORTS', 'NOT_ENOUGH_INFO', 'REFUTES']),
        claim('none', ['NOT_ENOUGH_INFO', 'NOT_ENOUGH_INFO']),
        claim('all', ['SUPPORTS', 'REFUTES']),
      ].join('\n'),
    )
    expect(readClimateFever(file)).toEqual([
      {
        source: 'CLIMATE-FEVER',
        claim: 'mixed',
        passages: ['mixed0', 'mixed1', 'mixed2'],
        relevant: [true, false, true],
      },
    ])
  })
})
