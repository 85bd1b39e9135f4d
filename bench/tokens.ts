import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openEngine } from '../src/main/engine/engine'
import { hasEnded } from '../src/shared/vocabulary'
import { Config } from '../src/shared/config'
import { startFakeOpenAI } from '../test/helpers/fakeOpenAI'

/// Tokens per claim of t2 at one batch size, as the fake OpenAI-compatible server counts them (roughly a BPE
/// tokenizer: a word, a digit or a punctuation mark each; the response format's JSON schema counts as input).
export interface TokenFigure {
  batchSize: number
  claims: number
  /// Requests to the one panel model.
  panelRequests: number
  /// One panel model's tokens per claim.
  panelInputPerClaim: number
  panelOutputPerClaim: number
  panelTotalPerClaim: number
  /// The judge's tokens per claim (one judge request per claim at any batch size).
  judgeTotalPerClaim: number
  /// Resolving the claims into self-contained statements, per claim (up to 8 claims a request).
  resolverTotalPerClaim: number
}

const PLACES = ['Lyon', 'Porto', 'Gdansk', 'Leeds', 'Basel', 'Turin', 'Ghent', 'Bergen']

/// 24 claims of about 20 words, each between other sentences, as in an article.
const ARTICLE = Array.from({ length: 24 }, (_, i) => {
  const place = PLACES[i % PLACES.length]!
  return (
    `The old railway bridge in ${place} was opened in ${1850 + i * 3} and carried ${1200 + i * 45} trains ` +
    `a week by ${1900 + i}.`
  )
}).join(' ')

/// Runs the same 24-claim t2 check at batch sizes 1, 4 and 8 against the fake, one panel model and a judge.
export async function tokenBenchmarks(): Promise<TokenFigure[]> {
  const fake = await startFakeOpenAI()
  const figures: TokenFigure[] = []
  try {
    for (const batchSize of [1, 4, 8]) {
      const model = (id: string, name: string) => ({
        id,
        provider: 'openai-compatible' as const,
        baseURL: fake.baseURL,
        model: name,
      })
      const dataDir = mkdtempSync(join(tmpdir(), 'factdesk-bench-tokens-'))
      const engine = await openEngine({
        dataDir,
        config: Config.parse({
          models: {
            panel: [model('panel', `panel-${batchSize}`)],
            judge: model('judge', 'judge'),
            resolver: model('resolver', `resolver-${batchSize}`),
            batchSize,
          },
        }),
        runJobs: true,
      })
      try {
        const principal = await engine.localPrincipal()
        const { check } = await engine.service.submit(principal, { text: ARTICLE, tiers: ['t2'] })
        if (!hasEnded(await engine.service.getCheck(principal, check.id))) await engine.events.ended(check.id)
        const report = await engine.service.report(principal, check.id)
        if (report.check.status !== 'completed') throw new Error(`bench check ${report.check.status}`)
        const votes = report.claims.flatMap((claim) => claim.evaluations)
        const input = votes.reduce((sum, vote) => sum + (vote.usage?.inputTokens ?? 0), 0)
        const output = votes.reduce((sum, vote) => sum + (vote.usage?.outputTokens ?? 0), 0)
        const claims = report.claims.length
        const resolver = fake
          .of(`resolver-${batchSize}`)
          .reduce((sum, r) => sum + (r.usage?.prompt_tokens ?? 0) + (r.usage?.completion_tokens ?? 0), 0)
        const judge = report.summary.tokens.input + report.summary.tokens.output - input - output - resolver
        const round = (n: number) => Math.round(n * 10) / 10
        figures.push({
          batchSize,
          claims,
          panelRequests: fake.of(`panel-${batchSize}`).length,
          panelInputPerClaim: round(input / claims),
          panelOutputPerClaim: round(output / claims),
          panelTotalPerClaim: round((input + output) / claims),
          judgeTotalPerClaim: round(judge / claims),
          resolverTotalPerClaim: round(resolver / claims),
        })
      } finally {
        await engine.close()
        rmSync(dataDir, { recursive: true, force: true })
      }
    }
  } finally {
    await fake.close()
  }
  return figures
}
