import { createHash, randomBytes } from 'node:crypto'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import { ApiError } from '../../../shared/errors'
import { combinedCheck, combinedReport } from '../../../shared/manuscript'
import { MANUSCRIPT_ID, type Report } from '../../../shared/schemas'
import { hasEnded } from '../../../shared/vocabulary'
import type { ReportEvents } from '../base/events'
import type { Principal } from './access'
import type { Store } from '../store'
import type { CheckRecord } from '../store/checks'
import type { ClaimRecord } from '../store/documents'
import { checkView, claimView, decided, panelOf, ReportTally, type Decided } from './views'

/// The content codings a report may be sent in, besides none.
export type Coding = 'gzip' | 'br'

/// How many bytes of serialized reports are kept by default.
export const REPORT_CACHE_BYTES = 64 * 2 ** 20
/// The longest stretch a report's assembly holds the event loop before it lets other work in: short, as a
/// garbage collection may fall into any stretch and lengthen it.
const SLICE_MS = 1
/// Claims read per query while a report is assembled.
const PAGE = 16
/// Claims copied between looks at the clock while a report is put together.
const COPIES_PER_LOOK = 256
/// Characters of the text escaped at once while a report is assembled.
const TEXT_SLICE = 65_536

/// One piece of work done in stretches of at most about SLICE_MS, between which the event loop answers whatever
/// waits.
class Stretches {
  private started = performance.now()

  /// Ends the stretch once it has lasted SLICE_MS; `force` ends it anyway.
  async pause(force = false): Promise<void> {
    if (!force && performance.now() - this.started < SLICE_MS) return
    await new Promise((resolve) => setImmediate(resolve))
    this.started = performance.now()
  }
}

const gzipped = promisify(gzip)
const brotli = promisify(brotliCompress)
const encoders: Record<Coding, (json: Buffer) => Promise<Buffer<ArrayBuffer>>> = {
  gzip: (json) => gzipped(json),
  br: (json) =>
    brotli(json, {
      params: {
        // Quality 5 compresses about as fast as gzip and smaller; the default, 11, would take a second.
        [constants.BROTLI_PARAM_QUALITY]: 5,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: json.length,
      },
    }),
}

/// One version of a report, serialized: its JSON, its strong entity tag, and each compressed form, made once
/// when first asked for, on libuv's threads (never on the event loop).
export class ReportBytes {
  private readonly encoded = new Map<Coding, Promise<Buffer<ArrayBuffer>>>()
  /// The bytes held: the JSON and the compressed forms made so far.
  size: number

  constructor(
    private readonly tag: string,
    readonly json: Buffer<ArrayBuffer>,
    private readonly grew: () => void,
  ) {
    this.size = json.length
  }

  /// The entity tag of the report sent in `coding` (null: uncompressed): each coding is a representation of its
  /// own.
  etag(coding: Coding | null): string {
    return `"${this.tag}${coding ? `-${coding}` : ''}"`
  }

  /// The JSON compressed in `coding`.
  encode(coding: Coding): Promise<Buffer<ArrayBuffer>> {
    let bytes = this.encoded.get(coding)
    if (!bytes) {
      bytes = encoders[coding](this.json)
      this.encoded.set(coding, bytes)
      bytes.then(
        (done) => {
          this.size += done.length
          this.grew()
        },
        () => this.encoded.delete(coding),
      )
    }
    return bytes
  }
}

/// A claim of a report as it is kept: its JSON and what the summary counts of it, not its whole view (its
/// consensus's reasoning and citations were objects every garbage collection during a large report's assembly
/// had to trace).
interface KeptClaim extends Decided {
  json: Buffer
  tokens: { input: number; output: number }
}

const NO_TOKENS = { input: 0, output: 0 }
const COMMA = ','.charCodeAt(0)
const QUOTE = Buffer.from('"')

/// `text` as a JSON string, escaped a slice at a time: a long text's escaping in one piece would hold the
/// event loop for milliseconds.
async function jsonString(text: string, stretches: Stretches): Promise<Buffer<ArrayBuffer>> {
  const parts = [QUOTE]
  let at = 0
  while (at < text.length) {
    let end = Math.min(text.length, at + TEXT_SLICE)
    // A surrogate pair cut in two would be escaped as two lone halves.
    const last = text.charCodeAt(end - 1)
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end -= 1
    parts.push(Buffer.from(JSON.stringify(text.slice(at, end)).slice(1, -1)))
    at = end
    await stretches.pause()
  }
  parts.push(QUOTE)
  return Buffer.concat(parts)
}

/// A check's report kept up to date: each claim serialized on its own and serialized again only when something
/// lands on it, the summary counted as claims change, the whole put together once per version that is read.
class KeptReport {
  private readonly index = new Map<string, number>()
  private readonly claims: KeptClaim[] = []
  private readonly tally: ReportTally
  private tokens = { ...NO_TOKENS }
  private text = Buffer.alloc(0)
  private panel = ''
  private claimBytes = 0
  /// The current version, being serialized or serialized; null once something changed.
  private current: Promise<ReportBytes> | null = null
  /// The current version once serialized, for its size.
  private serialized: ReportBytes | null = null
  private dropped = false
  /// True once every claim has been read in.
  complete = false
  /// True when a claim that landed could not be read again: the report must be assembled anew.
  broken = false
  /// True once the claims were read after the check was seen ended: nothing lands on them after that. A claim's
  /// last consensus is written before its check ends, but its event may come after the check's end is read (on
  /// another replica of a team server, or while a version is being serialized): a report that showed the end
  /// without it would keep it from whoever stops reading once the check ended.
  private settled: boolean
  /// Claims that landed while the report was being assembled.
  private readonly landedEarly = new Set<string>()
  /// The claims being read again after they landed, one after another.
  private updates: Promise<void> = Promise.resolve()
  /// Settles once every claim has been read in.
  readonly ready: Promise<void>

  constructor(
    private readonly store: Store,
    readonly record: CheckRecord,
    private readonly nextTag: () => string,
    private readonly grew: () => void,
  ) {
    this.tally = new ReportTally(record.tiers)
    // Assembled after the end was read, the claims are read as they ended.
    this.settled = hasEnded(record)
    this.ready = this.assemble()
  }

  /// The bytes held.
  get size(): number {
    return this.claimBytes + this.text.length + (this.serialized?.size ?? 0)
  }

  /// Stops assembling and lets go of everything.
  drop(): void {
    this.dropped = true
    this.changed()
  }

  /// The check itself changed (status, progress, name, webhook): the next read puts it together again.
  changed(): void {
    this.current = null
    this.serialized = null
  }

  /// Something landed on claim `claimId`, or it was resolved: it is read again, after what landed before it.
  /// While the report is being assembled, the claim is read again at the end of the assembly (its page may have
  /// been read before it landed).
  landed(claimId: string): void {
    if (!this.complete) {
      this.landedEarly.add(claimId)
      return
    }
    if (!this.index.has(claimId)) return
    this.changed()
    this.updates = this.updates
      .then(() => this.reread([claimId]))
      .catch(() => {
        this.broken = true
      })
  }

  private async reread(ids: readonly string[]): Promise<void> {
    const claims = await Promise.all(ids.map((id) => this.store.documents.claim(id)))
    await this.keep(claims.filter((claim) => claim !== null))
  }

  /// The report as it stands, serialized once per version.
  bytes(): Promise<ReportBytes> {
    if (!this.current) {
      const serializing = this.serialize()
      this.current = serializing
      serializing.then(
        (bytes) => {
          if (this.current === serializing) this.serialized = bytes
        },
        () => {
          if (this.current === serializing) this.current = null
        },
      )
    }
    return this.current
  }

  /// Puts the report together as it is now: its claims are taken at once (what lands meanwhile makes the next
  /// version), then copied into one buffer a stretch at a time (a 10,000-claim report is megabytes): nothing here
  /// goes over all claims at once.
  private async serialize(): Promise<ReportBytes> {
    await this.updates
    const record = (await this.store.checks.byId(this.record.id)) ?? this.record
    if (!this.settled && hasEnded(record)) {
      // Read after the end was: every claim as it ended, after what landed before.
      const reading = this.updates.then(() => this.readClaims())
      this.updates = reading.catch(() => {
        this.broken = true
      })
      await reading
      this.settled = true
    }
    const check = await checkView(this.store, record, this.tally.done)
    const summary = this.tally.summary(this.claims.length, this.tokens)
    const claims = this.claims.slice()
    const head = Buffer.from(`{"check":${JSON.stringify(check)},"text":`)
    const middle = Buffer.from(',"claims":[')
    const sources = JSON.stringify(this.record.sourcePolicy ?? null)
    const tail = Buffer.from(
      `],"summary":${JSON.stringify(summary)},"panel":${this.panel},"sources":${sources}}`,
    )
    const commas = Math.max(claims.length - 1, 0)
    const json = Buffer.allocUnsafe(
      head.length + this.text.length + middle.length + this.claimBytes + commas + tail.length,
    )
    let offset = head.copy(json)
    offset += this.text.copy(json, offset)
    offset += middle.copy(json, offset)
    const stretches = new Stretches()
    for (const [i, claim] of claims.entries()) {
      if (i > 0) json[offset++] = COMMA
      offset += claim.json.copy(json, offset)
      if (i % COPIES_PER_LOOK === 0) await stretches.pause()
    }
    tail.copy(json, offset)
    return new ReportBytes(this.nextTag(), json, this.grew)
  }

  /// Reads the text and the claims in, a slice and a page at a time, letting the event loop answer other
  /// requests every millisecond or so: whatever the check's size, no stretch of it is long.
  private async assemble(): Promise<void> {
    const stretches = new Stretches()
    // The read that asked for the report has held this turn already.
    await stretches.pause(true)
    this.text = await jsonString(await this.store.documents.text(this.record.documentId), stretches)
    this.panel = JSON.stringify(await panelOf(this.store, this.record))
    await this.readClaims(stretches)
    while (this.landedEarly.size > 0) {
      const ids = [...this.landedEarly].filter((id) => this.index.has(id))
      this.landedEarly.clear()
      await this.reread(ids)
    }
    this.complete = true
  }

  /// Reads every claim of the document in, a page at a time.
  private async readClaims(stretches = new Stretches()): Promise<void> {
    let after: ClaimRecord | null = null
    for (;;) {
      await stretches.pause()
      if (this.dropped) throw new Error('The report cache was closed.')
      const page = await this.store.documents.claimsAfter(this.record.documentId, after, PAGE)
      await this.keep(page)
      after = page.at(-1) ?? after
      if (page.length < PAGE) break
    }
  }

  /// Serializes `claims` as they are in the store now, in place of what was kept of them.
  private async keep(claims: readonly ClaimRecord[]): Promise<void> {
    if (claims.length === 0) return
    const ids = claims.map((claim) => claim.id)
    const results = await this.store.results.forCheck(this.record.id, ids)
    const tokens = await this.store.results.tokensByClaim(this.record.id, ids)
    for (const claim of claims) {
      const view = claimView(claim, results)
      const kept: KeptClaim = {
        json: Buffer.from(JSON.stringify(view)),
        ...decided(view),
        tokens: tokens.get(claim.id) ?? NO_TOKENS,
      }
      const at = this.index.get(claim.id) ?? this.claims.length
      const replaced = this.claims[at] ?? null
      this.index.set(claim.id, at)
      this.claims[at] = kept
      this.tally.add(kept, replaced)
      this.tokens = {
        input: this.tokens.input + kept.tokens.input - (replaced?.tokens.input ?? 0),
        output: this.tokens.output + kept.tokens.output - (replaced?.tokens.output ?? 0),
      }
      this.claimBytes += kept.json.length - (replaced?.json.length ?? 0)
    }
    this.changed()
  }
}

/// Checks' reports, serialized and kept in memory, least recently read dropped first beyond `maxBytes`. A
/// report changes only through events the engine emits (a vote or consensus landing, the check's status,
/// progress, edits and webhook delivery) and through claims being resolved (by its own or another check of the
/// same document, or by deep research); the cache follows both, so a terminal check's report is built once and
/// a running one's is updated a claim at a time. In memory rather than in the store: a rebuild after a restart is
/// one read, and nothing is written for reports nobody reads. Each replica of a team server keeps its own, told of
/// what the others write by the same events (`ReportEvents.shared`): a claim resolved on another replica is heard
/// through the vote or the deep research run that follows it.
export class ReportCache {
  private readonly reports = new Map<string, KeptReport>()
  private readonly instance = randomBytes(4).toString('hex')
  private versions = 0
  private readonly stops: (() => void)[]

  constructor(
    private readonly store: Store,
    events: ReportEvents,
    private readonly maxBytes = REPORT_CACHE_BYTES,
  ) {
    this.stops = [
      events.subscribe((event) => {
        // A vote lands on its check's report; the claim may have been resolved for it (on another replica, where
        // `onResolved` below is not heard), which shows in the reports of the document's other checks too.
        if (event.type === 'claim') this.claimChanged(event.claimId)
        else if (event.type === 'check') this.reports.get(event.check.id)?.changed()
        // Deep research resolves its claim before it is accepted.
        else if (event.type === 'research' && event.step === null && event.research.claimId !== null)
          this.claimChanged(event.research.claimId)
      }),
      store.documents.onResolved((claim) => {
        for (const report of this.reports.values())
          if (report.record.documentId === claim.documentId) report.landed(claim.id)
      }),
    ]
  }

  /// Claim `claimId` changed: every report that shows it reads it again.
  private claimChanged(claimId: string): void {
    for (const report of this.reports.values()) report.landed(claimId)
  }

  /// The organization's check `checkId`'s report as it stands, serialized.
  async report(principal: Principal, checkId: string): Promise<ReportBytes> {
    if (MANUSCRIPT_ID.test(checkId)) return this.manuscriptReport(principal, checkId)
    // A kept report knows its organization: a read of a kept report asks the store nothing.
    let report = this.reports.get(checkId)
    if (report?.broken) {
      this.forget(checkId, report)
      report = undefined
    }
    const record = report ? report.record : await this.store.checks.get(principal.organizationId, checkId)
    if (!record || record.organizationId !== principal.organizationId)
      throw new ApiError('not_found', `There is no check ${checkId}.`)
    if (report) this.reports.delete(checkId)
    else
      report = new KeptReport(
        this.store,
        record,
        () => this.nextTag(),
        () => this.trim(),
      )
    // Last in the map is the most recently read.
    this.reports.set(checkId, report)
    try {
      await report.ready
    } catch (error) {
      this.forget(checkId, report)
      throw error
    }
    const bytes = await report.bytes()
    this.trim()
    return bytes
  }

  /// The report of the organization's manuscript `id`: its parts' reports, each kept as a check's, as one. Its
  /// tag is made of theirs, so it changes whenever one of them does.
  private async manuscriptReport(principal: Principal, id: string): Promise<ReportBytes> {
    const parts = await this.store.checks.ofManuscript(principal.organizationId, id)
    if (parts.length === 0) throw new ApiError('not_found', `There is no check ${id}.`)
    const kept = await Promise.all(parts.map((part) => this.report(principal, part.id)))
    const reports = kept.map((bytes) => JSON.parse(bytes.json.toString()) as Report)
    const check = combinedCheck(
      id,
      reports.map((report) => report.check),
      parts[0]?.manuscript?.parts ?? parts.length,
    )
    const tag = createHash('sha256')
      .update(kept.map((bytes) => bytes.etag(null)).join())
      .digest('base64url')
    const json = Buffer.from(JSON.stringify(combinedReport(check, reports)))
    return new ReportBytes(tag, json, () => undefined)
  }

  /// The bytes held, all reports together.
  get size(): number {
    let size = 0
    for (const report of this.reports.values()) size += report.size
    return size
  }

  /// How many reports are kept.
  get count(): number {
    return this.reports.size
  }

  /// Stops following the engine and lets go of every report.
  close(): void {
    for (const stop of this.stops) stop()
    for (const [checkId, report] of this.reports) this.forget(checkId, report)
  }

  /// Drops the least recently read reports until the rest fit in `maxBytes`; one still being assembled stays,
  /// for the requests that wait for it.
  private trim(): void {
    let size = this.size
    for (const [checkId, report] of this.reports) {
      if (size <= this.maxBytes) return
      if (!report.complete) continue
      size -= report.size
      this.forget(checkId, report)
    }
  }

  private forget(checkId: string, report: KeptReport): void {
    report.drop()
    if (this.reports.get(checkId) === report) this.reports.delete(checkId)
  }

  /// A strong entity tag, never given twice: another process (after a restart) has another instance.
  private nextTag(): string {
    return `${this.instance}-${(++this.versions).toString(36)}`
  }
}
