// `npm run eval -- verification --config FILE [--file PATH] [--limit N]`: the verdicts of a configured panel
// against labelled claims (../shared/data/verification/*.jsonl): accuracy and macro-F1 (over the gold verdicts
// present) of t2, of t2 with the file's evidence sentences as context and no web (Climate-FEVER), and of t3
// when the config file names a search provider; with the tokens spent per claim. Claims are checked as the job
// runner checks them: every panel model votes, then the judge decides from the votes cast.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Verdict, type Evaluation } from '../src/shared/schemas'
import type { Config, ModelConfig } from '../src/shared/config'
import { Admin } from '../src/main/engine/admin'
import { systemClock } from '../src/main/engine/clock'
import { loadConfig } from '../src/main/engine/config'
import { apiKeys } from '../src/main/engine/keys'
import { ModelClient, modelHandle, modelSettings } from '../src/main/engine/models'
import { Store } from '../src/main/engine/store'
import { modelTier } from '../src/main/engine/tiers/t2'
import {
  Decision,
  JUDGE_SYSTEM,
  PANEL_SYSTEM,
  Vote,
  judgePrompt,
  votePrompt,
} from '../src/main/engine/tiers/t2/prompts'
import { webTier } from '../src/main/engine/tiers/t3'
import type { TierChecker } from '../src/main/engine/tiers/tier'
import { Web } from '../src/main/engine/web'
import { eachClaim, tokensOf } from './calls'
import type { EvalSet } from './index'
import { NotConfigured } from './notConfigured'

const DATA = fileURLToPath(new URL('../../shared/data/verification/', import.meta.url))

/// A labelled claim, and the evidence sentences the file gives for it (Climate-FEVER), if any.
interface LabelledClaim {
  claim: string
  gold: Verdict
  evidence: string[] | null
}

// Climate-FEVER's DISPUTED (its evidence both supports and refutes) is the nearest to "misleading".
const CLIMATE_FEVER: Record<string, Verdict> = {
  SUPPORTS: 'supported',
  REFUTES: 'refuted',
  NOT_ENOUGH_INFO: 'unverifiable',
  DISPUTED: 'misleading',
}
const FACTCHECK_BENCH: Record<string, Verdict> = {
  true: 'supported',
  false: 'refuted',
  not_enough_evidence: 'unverifiable',
}

/// Reads either format, one JSON object a line: Climate-FEVER (`claim`, `claim_label`, `evidences`) or
/// Factcheck-Bench (`claim`, `label`).
function readClaims(path: string): LabelledClaim[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line, index) => {
      const row = JSON.parse(line) as {
        claim: string
        claim_label?: string
        label?: string | boolean
        evidences?: { evidence: string }[]
      }
      const gold =
        row.claim_label !== undefined ? CLIMATE_FEVER[row.claim_label] : FACTCHECK_BENCH[String(row.label)]
      if (!gold) throw new Error(`${path}:${index + 1}: unknown label ${row.claim_label ?? row.label}`)
      return { claim: row.claim, gold, evidence: row.evidences?.map((e) => e.evidence) ?? null }
    })
}

/// A way of deciding a claim: its verdict and the tokens spent, or null when no vote could be had.
type Decide = (item: LabelledClaim) => Promise<{ verdict: Verdict; tokens: number } | null>

const verification: EvalSet = {
  describe:
    'verdicts of the configured panel against labelled claims: accuracy, macro-F1 over the gold verdicts, ' +
    'tokens per claim (t2; t2 with the evidence sentences as context; t3 when search is configured)',
  async run({ file, config: configPath, limit }) {
    const config = loadConfig(configPath)
    const judge = config.models.judge
    if (config.models.panel.length === 0 || judge === null)
      throw new NotConfigured(
        'verification needs a panel and a judge: pass a config file with models.panel and models.judge ' +
          '(--config FILE). Nothing was measured.',
      )
    const files = file ? [resolve(file)] : readdirSync(DATA).map((name) => join(DATA, name))
    const dataDir = mkdtempSync(join(tmpdir(), 'factdesk-eval-'))
    const store = Store.open(dataDir)
    try {
      const organizationId = new Admin(store, systemClock).defaultOrganization().id
      const t2 = modelTier(config.models, store.voteCache) as TierChecker
      const t3 = searchConfigured(configPath) ? webTier(config, new Web(config)) : null
      const table: Record<string, ReturnType<typeof scores>> = {}
      // The headline: t2 over every claim of every file.
      const byT2: Decided[] = []
      for (const path of files.sort()) {
        const claims = readClaims(path).slice(0, limit)
        const ways: [string, Decide][] = [['t2', byTier(t2, organizationId)]]
        if (claims.some((item) => item.evidence))
          ways.push(['t2 with evidence', withEvidence(config.models, judge)])
        if (t3) ways.push(['t3', byTier(t3, organizationId)])
        for (const [how, decide] of ways) {
          const decided = await eachClaim(claims, async (item): Promise<Decided> => {
            const outcome = await decide(item)
            return { gold: item.gold, verdict: outcome?.verdict ?? null, tokens: outcome?.tokens ?? 0 }
          })
          if (how === 't2') byT2.push(...decided)
          table[`${basename(path)}: ${how}`] = scores(decided)
        }
      }
      await Promise.all([t2.close?.(), t3?.close?.()])
      return { ...scores(byT2), table }
    } finally {
      store.close()
      rmSync(dataDir, { recursive: true, force: true })
    }
  },
}
export default verification

/// Whether the config file names a search provider for t3 (every config has a default one; the eval runs t3
/// only on request, since it reaches the web).
function searchConfigured(configPath: string | undefined): boolean {
  return configPath !== undefined && 'search' in (JSON.parse(readFileSync(configPath, 'utf8')) as object)
}

/// A claim's gold verdict, the one decided (null when no model voted) and the tokens spent.
interface Decided {
  gold: Verdict
  verdict: Verdict | null
  tokens: number
}

/// Accuracy, macro-F1 over the gold verdicts present and tokens per claim; a claim no model voted on counts
/// as wrong.
function scores(decided: Decided[]) {
  const golds = [...new Set(decided.map((d) => d.gold))]
  const f1s = golds.map((label) => {
    const tp = decided.filter((d) => d.gold === label && d.verdict === label).length
    const predicted = decided.filter((d) => d.verdict === label).length
    const actual = decided.filter((d) => d.gold === label).length
    return tp === 0 ? 0 : (2 * tp) / (predicted + actual)
  })
  const n = Math.max(1, decided.length)
  return {
    claims: decided.length,
    failed: decided.filter((d) => d.verdict === null).length,
    accuracy: round(decided.filter((d) => d.gold === d.verdict).length / n),
    macroF1: round(f1s.reduce((sum, f1) => sum + f1, 0) / Math.max(1, f1s.length)),
    tokensPerClaim: Math.round(decided.reduce((sum, d) => sum + d.tokens, 0) / n),
  }
}

/// A claim checked by a tier alone: every panel model's unit, then the judge's, as the job runner runs them.
function byTier(tier: TierChecker, organizationId: string): Decide {
  let claimNumber = 0
  return async (item) => {
    const claim = {
      id: `claim_${++claimNumber}`,
      documentId: 'eval',
      text: item.claim,
      charStart: 0,
      statement: null,
      parts: null,
    }
    const input = {
      claim: { ...claim, charEnd: item.claim.length },
      checkId: `eval_${tier.tier}`,
      organizationId,
      documentText: item.claim,
      signal: new AbortController().signal,
      now: () => new Date().toISOString(),
    }
    const outcomes = await Promise.allSettled(tier.models().map((model) => tier.check({ ...input, model })))
    const votes = outcomes.flatMap((o) =>
      o.status === 'fulfilled' && o.value.evaluation
        ? [{ ...o.value.evaluation, parts: o.value.partEvaluations ?? null }]
        : [],
    )
    if (votes.length === 0 || !tier.judge) return null
    const judged = await tier.judge({ ...input, model: '#judge', votes }).catch(() => null)
    const verdict = Verdict.safeParse(judged?.consensus?.verdict)
    if (!judged || !verdict.success) return null
    const tokens =
      votes.reduce((sum, vote) => sum + tokensOf(vote.usage), 0) + tokensOf(judged.consensusUsage)
    return { verdict: verdict.data, tokens }
  }
}

/// t2's prompts with the claim's evidence sentences beside it in the data block (and no web): each panel model
/// votes, then the judge decides.
function withEvidence(models: Config['models'], judgeModel: ModelConfig): Decide {
  const client = new ModelClient(modelSettings(models))
  const keys = apiKeys()
  const panel = models.panel.map((model, i) => modelHandle(model, `models.panel[${i}]`, keys))
  const judge = modelHandle(judgeModel, 'models.judge', keys)
  return async (item) => {
    const data = { claim: item.claim, sentenceBefore: '', sentenceAfter: '', evidence: item.evidence ?? [] }
    const signal = new AbortController().signal
    const now = new Date().toISOString()
    const answers = await Promise.allSettled(
      panel.map((handle) =>
        client.generate(handle, {
          system: PANEL_SYSTEM,
          prompt: votePrompt(data),
          schema: Vote,
          name: 'vote',
          signal,
        }),
      ),
    )
    const votes: Evaluation[] = []
    let tokens = 0
    answers.forEach((answer, i) => {
      if (answer.status !== 'fulfilled') return
      tokens += tokensOf(answer.value.usage)
      const model = models.panel[i]?.id ?? ''
      votes.push({
        tier: 't2',
        model,
        ...answer.value.object,
        citations: [],
        createdAt: now,
        cached: false,
        usage: null,
        round: 1,
      })
    })
    if (votes.length === 0) return null
    const decided = await client
      .generate(judge, {
        system: JUDGE_SYSTEM,
        prompt: judgePrompt(data, votes),
        schema: Decision,
        name: 'decision',
        signal,
      })
      .catch(() => null)
    if (!decided) return null
    return { verdict: decided.object.verdict, tokens: tokens + tokensOf(decided.usage) }
  }
}

const round = (value: number): number => Math.round(value * 1000) / 1000
