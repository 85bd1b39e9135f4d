// `npm run eval -- evidence [--file PATH]`: ranking each claim's candidate passages by relevance, on
// Factcheck-Bench's claim/evidence pairs (any stance other than "irrelevant" is relevant). Over the claims
// with at least one relevant passage: precision at 1, nDCG@3 (binary relevance) and the share of irrelevant
// passages in the top 3, for the engine's ranking, plain BM25 and the best possible ordering.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { bm25Scores, order, relevanceScores } from '../src/main/engine/web/rank'
import type { EvalSet } from './index'

const DATA = fileURLToPath(new URL('../../shared/data/evidence/factcheckbench-stance.jsonl', import.meta.url))

interface Group {
  claim: string
  passages: string[]
  relevant: boolean[]
}

export function readGroups(file: string): Group[] {
  const groups = new Map<string, Group>()
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue
    const row = JSON.parse(line) as { claim: string; evidence: string; stance: string }
    const group = groups.get(row.claim) ?? { claim: row.claim, passages: [], relevant: [] }
    group.passages.push(row.evidence)
    group.relevant.push(row.stance !== 'irrelevant')
    groups.set(row.claim, group)
  }
  return [...groups.values()].filter((group) => group.relevant.some(Boolean))
}

/// Precision at 1, nDCG@3 and the irrelevant share of the top 3 of one ordering, averaged over the groups.
export function measureOrdering(groups: readonly Group[], rank: (group: Group) => number[]) {
  let p1 = 0
  let ndcg = 0
  let junk = 0
  for (const group of groups) {
    const ranked = rank(group)
    const top = ranked.slice(0, 3)
    p1 += group.relevant[ranked[0] ?? -1] ? 1 : 0
    const dcg = top.reduce((sum, i, k) => sum + (group.relevant[i] ? 1 / Math.log2(k + 2) : 0), 0)
    const ideal = Math.min(3, group.relevant.filter(Boolean).length)
    let idcg = 0
    for (let k = 0; k < ideal; k++) idcg += 1 / Math.log2(k + 2)
    ndcg += dcg / idcg
    junk += top.filter((i) => !group.relevant[i]).length / top.length
  }
  const n = groups.length || 1
  const round = (x: number) => Math.round((x / n) * 1000) / 1000
  return { 'precision@1': round(p1), 'nDCG@3': round(ndcg), 'irrelevant in top 3': round(junk) }
}

const evidence: EvalSet = {
  describe:
    'ranking claim passages (Factcheck-Bench stance): precision@1, nDCG@3, irrelevant share of the top 3 ' +
    'over claims with a relevant passage',
  async run({ file }) {
    const groups = readGroups(file ?? DATA)
    return {
      'engine ranking': measureOrdering(groups, (g) => order(relevanceScores(g.claim, g.passages))),
      'plain BM25': measureOrdering(groups, (g) => order(bm25Scores(g.claim, g.passages))),
      'best possible': measureOrdering(groups, (g) => order(g.relevant.map(Number))),
      claims: { 'precision@1': groups.length, 'nDCG@3': null, 'irrelevant in top 3': null },
    }
  },
}
export default evidence
