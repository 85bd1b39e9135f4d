import { t1Outcome } from '../../src/main/engine/tiers/t1/outcome'
import type { TierChecker, UnitInput, UnitOutcome } from '../../src/main/engine/tiers/tier'

/// A t1 tier for lifecycle tests: decides `clean` for every claim, but only once `release()` is called for it
/// (or at once when `open`), and honours the AbortSignal like a real tier.
export class GatedTier implements TierChecker {
  readonly tier = 't1' as const
  readonly started: string[] = []
  readonly aborted: string[] = []
  private readonly waiting = new Map<string, () => void>()

  constructor(
    public open = false,
    private readonly failFor: (text: string) => boolean = () => false,
  ) {}

  models(): string[] {
    return ['']
  }

  /// Lets the unit of claim `claimId` finish, once it waits.
  release(claimId: string): void {
    const release = this.waiting.get(claimId)
    if (!release) throw new Error(`no unit of claim ${claimId} waits`)
    this.waiting.delete(claimId)
    release()
  }

  /// Lets every waiting unit finish.
  releaseAll(): void {
    this.open = true
    for (const release of this.waiting.values()) release()
    this.waiting.clear()
  }

  async check({ claim, signal, now }: UnitInput): Promise<UnitOutcome> {
    this.started.push(claim.id)
    if (!this.open) {
      await new Promise<void>((resolve, reject) => {
        this.waiting.set(claim.id, resolve)
        signal.addEventListener('abort', () => {
          this.aborted.push(claim.id)
          reject(signal.reason)
        })
      })
    }
    if (this.failFor(claim.text)) throw new Error(`the checker choked on "${claim.text.slice(0, 20)}"`)
    // What t1 records for a claim without findings.
    return t1Outcome(claim, { model: 'gate', findings: [] }, now(), claim.text)
  }
}
