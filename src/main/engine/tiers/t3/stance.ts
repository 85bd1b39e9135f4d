// How each verified quote bears on the claim. A quote that occurs in its page may still say nothing about the
// claim (same words, another subject); a verdict of supported or refuted must rest on a quote that supports or
// refutes it. The verifier is `models.verifier`, else the judge: a general model judges all of one claim's
// quotes in one request; a MiniCheck model (plain Yes/No) is asked once per quote. Each quote is read with the
// sentences around it on its page (what "it" or "the company" in it is). A stance that cannot be read from the
// answer, even asked again, is null: not checked, never a guessed neutral.
import { z } from 'zod'
import type { Config } from '../../../../shared/config'
import type { Citation, Stance, TokenUsage } from '../../../../shared/schemas'
import type { ApiKeys } from '../../base/keys'
import { addUsage, modelHandle, UnusableAnswerError, type ModelClient, type ModelHandle } from '../../models'
import type { Web } from '../../web'
import { referredIndex, unreadReferences } from '../references'
import { claimContext } from '../t2/context'
import { dataBlock } from '../t2/prompts'
import { DATA_RULE, webDateRule } from './prompts'

/// The verifier's model and how it answers.
export interface Verifier {
  handle: ModelHandle
  kind: 'llm' | 'minicheck'
}

/// `models.verifier`, else the judge as a general model.
export function verifierFor(models: Config['models'], judge: ModelHandle, keys: ApiKeys): Verifier {
  if (!models.verifier) return { handle: judge, kind: 'llm' }
  return { handle: modelHandle(models.verifier, 'models.verifier', keys), kind: models.verifier.kind }
}

/// The system prompt says what each member is; the id says it again, where some servers pass it to the model.
export const Stances = z.object({
  stances: z.array(
    z.object({
      quote: z.string().describe('the quote’s id: Q1, Q2…'),
      reasoning: z.string(),
      stance: z.enum(['supports', 'refutes', 'neutral']),
    }),
  ),
})

function stanceSystem(today: string | null): string {
  return [
    'You check the sources a fact-checker cited: judge each quote on its own words and date, not on what you ' +
      'know; the sentences around it on its page say what it refers to. JSON: one entry per quote, its id as ' +
      '"quote", "reasoning" (one sentence: what it says about the claim), then "stance": supports (it confirms ' +
      'the claim as stated), refutes (it contradicts it) or neutral (another subject, or it settles neither).',
    ...webDateRule(today),
    DATA_RULE,
  ].join('\n')
}

/// A quote as the verifier reads it: with the sentences before and after it on its page ('' where none).
interface QuoteInContext {
  citation: Citation
  sentenceBefore: string
  sentenceAfter: string
}

const stancePrompt = (statement: string, quotes: readonly QuoteInContext[]): string =>
  `Judge how each of "quotes" bears on "claim".\n${dataBlock({
    claim: statement,
    quotes: quotes.map(({ citation, sentenceBefore, sentenceAfter }, index) => ({
      id: `Q${index + 1}`,
      source: citation.title,
      publishedAt: citation.publishedAt,
      ...(sentenceBefore ? { sentenceBefore } : {}),
      quote: citation.quote,
      ...(sentenceAfter ? { sentenceAfter } : {}),
    })),
  })}`

/// MiniCheck's own prompt (bespoke-minicheck is trained on exactly this form); the document is the quote with
/// the sentences around it.
const minicheckPrompt = (statement: string, { citation, sentenceBefore, sentenceAfter }: QuoteInContext) =>
  `Document: ${[sentenceBefore, citation.quote, sentenceAfter].filter(Boolean).join(' ')}\nClaim: ${statement}`

/// The quote with the sentences around it on its page (the cached source, fetched again only when it expired),
/// matched whatever its runs of whitespace; the quote alone when the page cannot be read now or no longer has it.
async function inContext(web: Web, citation: Citation, signal: AbortSignal): Promise<QuoteInContext> {
  const alone = { citation, sentenceBefore: '', sentenceAfter: '' }
  let text: string
  try {
    text = (await web.source(citation.url, signal)).text
  } catch {
    signal.throwIfAborted()
    return alone
  }
  const words = citation.quote
    .trim()
    .split(/\s+/)
    .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  const found = new RegExp(words.join('\\s+')).exec(text)
  if (!found) return alone
  return {
    citation,
    ...claimContext(text, { charStart: found.index, charEnd: found.index + found[0].length }),
  }
}

/// The citations with their stance toward `statement` (null where it could not be judged), and the tokens the
/// verifier spent (none for none).
export async function judgeStances(
  client: ModelClient,
  verifier: Verifier,
  web: Web,
  statement: string,
  citations: readonly Citation[],
  today: string | null,
  signal: AbortSignal,
): Promise<{ citations: Citation[]; usage: TokenUsage | null }> {
  if (citations.length === 0) return { citations: [], usage: null }
  const quotes = await Promise.all(citations.map((citation) => inContext(web, citation, signal)))
  if (verifier.kind === 'minicheck') {
    const answers = await Promise.all(
      quotes.map((quote) =>
        client.text(verifier.handle, { prompt: minicheckPrompt(statement, quote), signal }).catch(unusable),
      ),
    )
    return {
      citations: citations.map((citation, index) => ({
        ...citation,
        stance: minicheckStance(answers[index]?.text ?? ''),
      })),
      usage: addUsage(...answers.map((answer) => answer.usage)),
    }
  }
  const texts = citations.map((citation) => citation.quote)
  let answer
  try {
    answer = await client.generate(verifier.handle, {
      system: stanceSystem(today),
      prompt: stancePrompt(statement, quotes),
      schema: Stances,
      name: 'stances',
      signal,
      check: (object) => unjudged(stancesOf(object, texts)),
    })
  } catch (error) {
    if (!(error instanceof UnusableAnswerError)) throw error
    return { citations: citations.map((citation) => ({ ...citation, stance: null })), usage: null }
  }
  const stances = stancesOf(answer.object, texts)
  return {
    citations: citations.map((citation, index) => ({ ...citation, stance: stances[index] ?? null })),
    usage: answer.usage,
  }
}

/// Each quote's stance in the answer, undefined where it gives none: its entry found by the quote's id or
/// words however the model wrote them; an answer with one entry per quote is read in order where an entry's
/// reference cannot be read.
function stancesOf(answer: z.infer<typeof Stances>, quotes: readonly string[]): Array<Stance | undefined> {
  const named = answer.stances.map((entry) => referredIndex(entry.quote, quotes))
  const inOrder = answer.stances.length === quotes.length
  return quotes.map((_, index) => {
    const entry =
      answer.stances[named.indexOf(index)] ??
      (inOrder && named[index] === null ? answer.stances[index] : undefined)
    return entry?.stance
  })
}

/// What a check says of an answer that leaves quotes without a stance: which, and how to name them.
function unjudged(stances: ReadonlyArray<Stance | undefined>): string | null {
  const missing = stances.flatMap((stance, index) => (stance ? [] : [`Q${index + 1}`]))
  if (missing.length === 0) return null
  if (missing.length === stances.length) return unreadReferences('quotes', 'Q', stances.length)
  return `it gives no stance for ${missing.join(', ')}: one entry per quote, its id as "quote"`
}

/// A MiniCheck request whose answer cannot be used counts as no answer: its quote is not checked.
function unusable(error: unknown): { text: string; usage: null } {
  if (error instanceof UnusableAnswerError) return { text: '', usage: null }
  throw error
}

/// MiniCheck's answer: "Yes" (the document supports the claim), "No" (it does not: MiniCheck cannot tell a
/// refutation from another subject), anything else null (not checked).
const minicheckStance = (answer: string): Stance | null =>
  /^\W*yes\b/i.test(answer) ? 'supports' : /^\W*no\b/i.test(answer) ? 'neutral' : null
