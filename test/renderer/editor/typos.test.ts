// The editor's rules for names and the writer's English, on Harper's real findings (the lint worker's
// `markedAsWritten`, then the plugin's `takenForName` over the whole document), against t1's on the same text.
import type { LocalLinter } from 'harper.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Finding } from '../../../src/shared/findings'
import { harperDialect, lintText } from '../../../src/shared/harper'
import type { Dialect as WritingDialect } from '../../../src/shared/schemas'
import { likelyTypo, markedAsWritten, takenForName } from '../../../src/shared/typos'
import { harperLinter } from '../../helpers/harper'

let linter: LocalLinter
beforeAll(async () => {
  linter = await harperLinter()
}, 60_000)
afterAll(async () => {
  await linter.dispose()
})

/// Harper's spelling findings on `text`, as the words they cover.
async function spellingFindings(text: string, dialect: WritingDialect): Promise<Finding[]> {
  await linter.setDialect(harperDialect(dialect))
  return (await lintText(linter, text)).filter((finding) => finding.spelling)
}

const wordOf = (text: string, finding: Finding): string => text.slice(finding.charStart, finding.charEnd)

/// The words the editor marks in `text`, one paragraph, as the worker and then the plugin keep them.
async function marked(text: string, dialect: WritingDialect = 'american'): Promise<string[]> {
  return (await spellingFindings(text, dialect))
    .filter((finding) => markedAsWritten(finding, wordOf(text, finding)))
    .filter((finding) => !takenForName(finding, wordOf(text, finding), text, 0))
    .map((finding) => wordOf(text, finding))
}

describe("the editor's spelling marks", () => {
  const ARTICLE =
    'Our reporter met Dr Okafor at the dam. Natarajan said the water rose by a metre. ' +
    'RIVERTON flooded, he said. Natarajan left. Riverton was recieved well. Speling matters.'

  it('leave names alone as t1 does, and mark the typos', async () => {
    const harper = (await spellingFindings(ARTICLE, 'british')).map((finding) => wordOf(ARTICLE, finding))
    expect(harper).toEqual(expect.arrayContaining(['Okafor', 'Natarajan', 'RIVERTON', 'recieved', 'Speling']))
    expect(await marked(ARTICLE, 'british')).toEqual(['recieved', 'Speling'])
    const t1 = (await spellingFindings(ARTICLE, 'british'))
      .filter((finding) => likelyTypo(finding, ARTICLE, { document: ARTICLE, charStart: 0 }))
      .map((finding) => wordOf(ARTICLE, finding))
    expect(t1).toEqual(['recieved', 'Speling'])
  })

  it('mark another English’s spelling of a word in the writer’s, never a common word changed into another', async () => {
    const text = 'The colour of the metre stick is grey, and it is bigger that the old one.'
    const american = await marked(text)
    expect(american).toContain('colour')
    expect(american).not.toContain('that')
    expect(await marked(text, 'british')).toEqual([])
    expect(await marked('The color is gray.', 'british')).toContain('color')
  })

  it('mark a lower-case misspelling every time, but not a term the document repeats', async () => {
    expect(await marked('They recieve it today. We recieve it tomorrow.')).toEqual(['recieve', 'recieve'])
    expect(await marked('The thermokarst is old. The thermokarst is wide.')).toEqual([])
  })
})
