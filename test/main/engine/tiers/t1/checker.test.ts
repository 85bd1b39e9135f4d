import { readFileSync } from 'node:fs'
import type { Worker } from 'node:worker_threads'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Dialect } from '../../../../../src/shared/schemas'
import type { Placement } from '../../../../../src/shared/typos'
import { SpellingChecker, type Finding } from '../../../../../src/main/engine/tiers/t1'
import { startWorker } from '../../../../../src/main/engine/tiers/t1/workerEntry'

// The real worker, watched: the restart test needs to kill the thread a check runs on.
vi.mock('../../../../../src/main/engine/tiers/t1/workerEntry', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../../../src/main/engine/tiers/t1/workerEntry')>()
  return { ...actual, startWorker: vi.fn(actual.startWorker) }
})
const workers = (): Worker[] => vi.mocked(startWorker).mock.results.map((result) => result.value as Worker)

// Distinct sentences, so Harper's cache of recent sentences cannot make the work quick.
const longText = (count: number): string =>
  Array.from(
    { length: count },
    (_, i) => `Sentence ${i} of the report has a speling mistake near the end.`,
  ).join(' ')

const checker = new SpellingChecker()
beforeAll(() => checker.check('Warm up.'), 60_000)
afterAll(() => checker.close())

const spellingOf = (text: string, findings: Finding[]): Finding | undefined =>
  findings.find(
    (finding) => finding.rule === 'SpellCheck' && text.slice(finding.charStart, finding.charEnd) === 'brwon',
  )

describe('SpellingChecker', () => {
  it("checks in the writer's English and leaves their dictionary's words alone", async () => {
    const text = 'Factdesk says the tower is 330 metres tall and its colour is grey.'
    const words = async (writing?: Parameters<SpellingChecker['check']>[2]) =>
      (await checker.check(text, undefined, writing)).findings
        .filter((finding) => finding.rule === 'SpellCheck')
        .map((finding) => text.slice(finding.charStart, finding.charEnd))
    // "metres", "colour" and "grey" are English in any English (see 'names are not typos').
    expect(await words()).toEqual(['Factdesk'])
    expect(await words({ dialect: 'british', dictionary: [] })).toEqual(['Factdesk'])
    expect(await words({ dialect: 'british', dictionary: ['Factdesk'] })).toEqual([])
  })

  it('offers the contraction first where another rule flags a word without its apostrophe', async () => {
    const first = async (text: string, word: string) => {
      const { findings } = await checker.check(text)
      const finding = findings.find((f) => text.slice(f.charStart, f.charEnd) === word)
      return [finding?.rule, finding?.suggestions[0]]
    }
    // Harper alone offers "Ive" and "want".
    expect(await first('Yesterday ive seen it.', 'ive')).toEqual(['CapitalizePersonalPronouns', "I've"])
    expect(await first('We wont go.', 'wont')).toEqual(['NominalWants', "won't"])
    // Its own suggestion stands where it is the contraction already.
    expect(await first('Its a dog.', 'Its')).toEqual(['ItsContraction', "It's"])
  })

  it('leaves a dictionary word alone also where Harper would split it', async () => {
    const text = 'They said acount again.'
    const flagged = async (dictionary: string[]) =>
      (await checker.check(text, undefined, { dialect: 'american', dictionary })).findings.map(
        (finding) => `${finding.rule} ${text.slice(finding.charStart, finding.charEnd)}`,
      )
    expect(await flagged([])).toContain('SplitWords acount')
    expect(await flagged(['acount'])).not.toContain('SplitWords acount')
  })

  it('finds a misspelt word, with its offsets and the right word first', async () => {
    const text = 'The quick brwon fox jumps over the lazy dog.'
    const { findings } = await checker.check(text)
    expect(findings).toHaveLength(1)
    const [finding] = findings
    expect(finding).toMatchObject({ charStart: 10, charEnd: 15, rule: 'SpellCheck' })
    expect(finding?.suggestions[0]).toBe('brown')
    expect(finding?.message).toMatch(/brwon/)
  })

  it("puts the likeliest word first, and offers only words of the writer's English", async () => {
    const first = async (word: string, dialect: 'american' | 'british' = 'american') => {
      const text = `They said ${word} again.`
      const { findings } = await checker.check(text, undefined, { dialect, dictionary: [] })
      return findings.find((finding) => finding.charStart === 10)?.suggestions
    }
    // Harper alone offers only "a count" for "acount".
    expect(await first('acount')).toContain('account')
    // A left-out apostrophe is the likeliest slip.
    expect((await first('youre'))?.[0]).toBe("you're")
    // Harper offers "a rent" for "arent", and nothing with the apostrophe.
    expect((await first('arent'))?.[0]).toBe("aren't")
    // Words one edit away from "colur" include "color" and "colour": each writer is offered their own.
    expect((await first('colur'))?.[0]).toBe('color')
    expect(await first('colur', 'british')).toContain('colour')
    expect(await first('colur', 'british')).not.toContain('color')
    // The next check without settings is American again: the worker switches back.
    expect((await first('colur'))?.[0]).toBe('color')
  })

  it('finds a grammar error', async () => {
    const text = 'I ate a apple for lunch.'
    const { findings } = await checker.check(text)
    expect(findings).toEqual([
      expect.objectContaining({
        charStart: 6,
        charEnd: 7,
        rule: 'AnA',
        suggestions: ['an'],
        spelling: false,
      }),
    ])
  })

  it('calls a mistyped word spelling, whichever rule finds it', async () => {
    const text = 'I saw teh dog. It was recieved well.'
    const { findings } = await checker.check(text)
    const of = (word: string) =>
      findings.find((finding) => text.slice(finding.charStart, finding.charEnd) === word)
    // "teh" is Harper's rule The (a typo of a word it knows), "recieved" its SpellCheck.
    expect(of('teh')).toMatchObject({ rule: 'The', spelling: true, suggestions: ['the'] })
    expect(of('recieved')).toMatchObject({ rule: 'SpellCheck', spelling: true })
  })

  it('finds nothing in clean text', async () => {
    for (const text of ['The cat sat on the mat.', 'Paris is the capital of France.', ''])
      expect((await checker.check(text)).findings).toEqual([])
  })

  it('gives UTF-16 offsets after emoji, CJK and combining marks', async () => {
    const prefixes = [
      '😀😀 ',
      '👨‍👩‍👧 ',
      '𝒳𝒴 ',
      '日本語の ',
      'Cafe\u0301 cre\u0300me ',
      '🇫🇷 e\u0301\u0301 Ω ',
      '😀 日本 e\u0301 𝒳 ',
    ]
    for (const prefix of prefixes) {
      const text = `${prefix}The brwon fox is here.`
      const { findings } = await checker.check(text)
      expect(spellingOf(text, findings), JSON.stringify(text)).toMatchObject({
        charStart: prefix.length + 4,
        suggestions: expect.arrayContaining(['brown']),
      })
      for (const finding of findings) expect(finding.charEnd).toBeLessThanOrEqual(text.length)
    }
  })

  it('names the checker with the version of harper.js it runs', async () => {
    const { version } = JSON.parse(readFileSync('node_modules/harper.js/package.json', 'utf8')) as {
      version: string
    }
    expect((await checker.check('Fine.')).model).toBe(`harper.js ${version}`)
  })

  it('rejects with an AbortError, and goes on with the checks behind', async () => {
    const controller = new AbortController()
    const running = checker.check(longText(200), controller.signal)
    const queued = new AbortController()
    const dropped = checker.check('A dropped check.', queued.signal)
    const next = checker.check('The brwon fox.')
    await new Promise((resolve) => setTimeout(resolve, 20))
    controller.abort()
    queued.abort()
    await expect(running).rejects.toMatchObject({ name: 'AbortError' })
    await expect(dropped).rejects.toMatchObject({ name: 'AbortError' })
    expect(spellingOf('The brwon fox.', (await next).findings)).toBeDefined()
    await expect(checker.check('Too late.', AbortSignal.abort())).rejects.toMatchObject({
      name: 'AbortError',
    })
  })

  it('fails the checks of a killed worker and starts a new one for the next', async () => {
    const started = workers().length
    const killed = checker.check(longText(200))
    const behind = checker.check('Behind the killed one.')
    await workers().at(-1)?.terminate()
    await expect(killed).rejects.toThrow(/t1 worker stopped/)
    await expect(behind).rejects.toThrow(/t1 worker stopped/)
    const { findings } = await checker.check('The brwon fox.')
    expect(spellingOf('The brwon fox.', findings)).toBeDefined()
    expect(workers().length).toBe(started + 1)
  }, 60_000)

  it('rejects what is pending when closed', async () => {
    const closing = new SpellingChecker()
    const pending = expect(closing.check('Never answered.')).rejects.toThrow(/closed/)
    await closing.close()
    await pending
  })
})

describe('names are not typos', () => {
  /// The words of `text` t1 flags as misspelt, checked as `placement` places it (by default alone).
  const misspelt = async (text: string, placement?: Placement, dialect: Dialect = 'american') =>
    (await checker.check(text, undefined, { dialect, dictionary: [] }, placement)).findings
      .filter((finding) => finding.spelling)
      .map((finding) => text.slice(finding.charStart, finding.charEnd))

  // Each of these Harper flags alone, as in a real article: "Okafor → Orator", "Natarajan → Catamaran",
  // "RIVERTON → Overton", "metre → mere", "that → than".
  it('Harper flags each of them on its own', async () => {
    for (const word of ['Okafor', 'Natarajan', 'RIVERTON']) expect(await misspelt(word)).toEqual([word])
    expect((await checker.check('Okafor')).findings[0]?.suggestions[0]).toBe('Orator')
  })

  it('leaves alone a capitalised word mid-sentence, a repeated word and any English’s words', async () => {
    const article =
      'Our reporter met Dr Okafor at the dam. Natarajan said the water rose by a metre. ' +
      'RIVERTON flooded, he said. It is bigger that the old one. Natarajan left. Riverton was recieved well. ' +
      'Speling matters.'
    for (const dialect of ['american', 'british', 'australian', 'canadian'] as const)
      // The typos stay: a lower-case word, and a capitalised one that starts a sentence once.
      expect(await misspelt(article, undefined, dialect)).toEqual(['recieved', 'Speling'])
  })

  it('marks a lower-case misspelling every time the writer makes it; a term of the text’s own once', async () => {
    const document = 'They will recieve it today. We recieve it tomorrow.'
    const claim = 'They will recieve it today.'
    expect(await misspelt(claim, { document, charStart: 0 })).toEqual(['recieve'])
    // No word it clearly stands for, and found again: the text's own term.
    const terms = 'The thermokarst is old. The thermokarst is wide.'
    expect(await misspelt('The thermokarst is old.')).toEqual(['thermokarst'])
    expect(await misspelt('The thermokarst is old.', { document: terms, charStart: 0 })).toEqual([])
  })

  it('judges names in the whole document a claim is checked in', async () => {
    const document = 'Okafor built the dam. The engineer, Okafor, says it holds.'
    const claim = 'Okafor built the dam.'
    expect(await misspelt(claim)).toEqual(['Okafor'])
    expect(await misspelt(claim, { document, charStart: 0 })).toEqual([])
    // A claim cut from the middle of a sentence: its first word is not a sentence's first.
    const clause = 'Natarajan agreed'
    const sentence = `As the report says, ${clause}.`
    expect(await misspelt(clause)).toEqual(['Natarajan'])
    expect(await misspelt(clause, { document: sentence, charStart: sentence.indexOf(clause) })).toEqual([])
  })

  it('leaves another English’s words alone, and the writer’s dictionary still teaches it a word', async () => {
    const text = 'The kitchen is a metre wide, its colour a theatre grey, the centre of the lakehouse.'
    expect(await misspelt(text)).toEqual(['lakehouse'])
    const { findings } = await checker.check(text, undefined, {
      dialect: 'british',
      dictionary: ['lakehouse'],
    })
    expect(findings.filter((finding) => finding.spelling)).toEqual([])
  })
})
