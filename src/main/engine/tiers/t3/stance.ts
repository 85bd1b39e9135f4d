// How each verified quote bears on the claim. A quote that occurs in its page may still say nothing about the
// claim (same words, another subject); a verdict of supported or refuted must rest on a quote that supports or
// refutes it. The verifier is `models.verifier`, else the judge: a general model judges all of one claim's
// quotes in one request; a MiniCheck model (plain Yes/No) is asked once per quote.
import { z } from 'zod'
import type { Config } from '../../../../shared/config'
import type { Citation, Stance, TokenUsage } from '../../../../shared/schemas'
import type { ApiKeys } from '../../keys'
import { addUsage, modelHandle, type ModelClient, type ModelHandle } from '../../models'
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

/// No descriptions: the system prompt says what each member is.
export const Stances = z.object({
  stances: z.array(
    z.object({
      quote: z.string(),
      reasoning: z.string(),
      stance: z.enum(['supports', 'refutes', 'neutral']),
    }),
  ),
})

function stanceSystem(today: string | null): string {
  return [
    'You check the sources a fact-checker cited: judge each quote on its own words and date, not on what you ' +
      'know. JSON: one entry per quote, its id as "quote", "reasoning" (one sentence: what it says about the ' +
      'claim), then "stance": supports (it confirms the claim as stated), refutes (it contradicts it) or ' +
      'neutral (another subject, or it settles neither).',
    ...webDateRule(today),
    DATA_RULE,
  ].join('\n')
}

const stancePrompt = (statement: string, citations: readonly Citation[]): string =>
  `Judge how each of "quotes" bears on "claim".\n${dataBlock({
    claim: statement,
    quotes: citations.map((citation, index) => ({
      id: `Q${index + 1}`,
      source: citation.title,
      publishedAt: citation.publishedAt,
      quote: citation.quote,
    })),
  })}`

/// MiniCheck's own prompt (bespoke-minicheck is trained on exactly this form).
const minicheckPrompt = (statement: string, quote: string): string =>
  `Document: ${quote}\nClaim: ${statement}`

/// The citations with their stance toward `statement`, and the tokens the verifier spent (none for none).
export async function judgeStances(
  client: ModelClient,
  verifier: Verifier,
  statement: string,
  citations: readonly Citation[],
  today: string | null,
  signal: AbortSignal,
): Promise<{ citations: Citation[]; usage: TokenUsage | null }> {
  if (citations.length === 0) return { citations: [], usage: null }
  if (verifier.kind === 'minicheck') {
    const answers = await Promise.all(
      citations.map((citation) =>
        client.text(verifier.handle, { prompt: minicheckPrompt(statement, citation.quote), signal }),
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
  const { object, usage } = await client.generate(verifier.handle, {
    system: stanceSystem(today),
    prompt: stancePrompt(statement, citations),
    schema: Stances,
    name: 'stances',
    signal,
  })
  // By the quote's id; a model that garbles the ids but answers each quote in order is read by position.
  const inOrder = object.stances.length === citations.length
  const stanceOf = (index: number): Stance =>
    (
      object.stances.find((entry) => /(\d+)/.exec(entry.quote)?.[1] === String(index + 1)) ??
      (inOrder ? object.stances[index] : undefined)
    )?.stance ?? 'neutral'
  return { citations: citations.map((citation, index) => ({ ...citation, stance: stanceOf(index) })), usage }
}

/// MiniCheck's answer: "Yes" (the document supports the claim) or anything else, which says only that it
/// does not.
const minicheckStance = (answer: string): Stance => (/^\W*yes\b/i.test(answer) ? 'supports' : 'neutral')
