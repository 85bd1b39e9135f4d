// Three `factdesk serve` processes on one PostgreSQL database behind a round-robin proxy, as a team server runs
// (docs/team-server.md), and the one working on a check killed (SIGKILL) half-way through it: another takes its
// units over once their leases have expired and ends the check, charged once, each vote stored once, its ending
// told once. A stream of events the kill cut goes on from its last id on another replica, without a gap or a
// repeat. Real processes, real HTTP, real PostgreSQL; only the models are fakes, one per replica, so that the fake
// a request reaches tells which replica asked.
import type { ChildProcessWithoutNullStreams } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { createServer, request as forward, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import pg from 'pg'
import { afterEach, describe, expect, it } from 'vitest'
import type { ConfigInput } from '../../../../src/shared/config'
import { exited, factdesk, startFactdesk } from '../../../helpers/cli'
import { followStream, readStream, type FollowedStream, type StreamEvent } from '../../../helpers/events'
import {
  claimsToResolve,
  startFakeOpenAI,
  type FakeOpenAI,
  type RecordedRequest,
} from '../../../helpers/fakeOpenAI'
import { postgresForTests } from '../../../helpers/postgres'
import { tempDir, THREE_CLAIMS } from '../../../helpers/server'
import { startReceiver, type Receiver } from '../webhooks/helpers'

const postgres = postgresForTests()

/// The replicas' leases (FACTDESK_LEASE_MS): renewed every 1.7 s, taken over 5 s after the last renewal, which
/// leaves a loaded machine's replicas time to renew theirs.
const LEASE_MS = 5_000
const PANEL = ['panel-a', 'panel-b']
/// Claims in THREE_CLAIMS.
const CLAIMS = 3

/// What a test started, stopped after it however it ended: processes killed, streams aborted, servers closed.
let started: { stop(): unknown }[] = []
afterEach(async () => {
  const stopping = started.reverse()
  started = []
  for (const each of stopping) await Promise.resolve(each.stop()).catch(() => undefined)
})

/// This process's environment without the variables that choose the database and its key, with short leases.
function environment(): NodeJS.ProcessEnv {
  const chosen = ['FACTDESK_DATABASE_URL', 'FACTDESK_SECRET_KEY', 'FACTDESK_DATA_DIR', 'PGPASSWORD']
  const inherited = Object.entries(process.env).filter(([name]) => !chosen.includes(name))
  return { ...Object.fromEntries(inherited), FACTDESK_LEASE_MS: String(LEASE_MS) }
}

/// A replica's config file: t2 on its own fake (a panel of two that agree, so the judge decides without a request),
/// webhooks to this computer, and the proxy's host (127.0.0.1, on its own port) answered.
function configFile(fake: FakeOpenAI): string {
  const model = (id: string, name: string) => ({
    id,
    provider: 'openai-compatible' as const,
    baseURL: fake.baseURL,
    model: name,
  })
  const config: ConfigInput = {
    models: {
      panel: PANEL.map((id) => model(id, `model-${id}`)),
      judge: model('judge', 'model-judge'),
      resolver: model('resolver', 'model-resolver'),
      // Held votes wait for the test, not for a timeout; every unit of the check in flight at once.
      requestTimeoutMs: 60_000,
      concurrencyPerProvider: 8,
    },
    webhooks: { allowLocalTargets: true },
    server: { allowedHosts: ['127.0.0.1'] },
  }
  const file = join(tempDir(), 'factdesk.json')
  writeFileSync(file, JSON.stringify(config))
  return file
}

/// `factdesk serve` on `database` with its own data folder and config, on a free port; its port once it listens,
/// and what it has said on its standard error so far.
async function serve(
  database: string,
  config: string,
): Promise<{ port: number; pid: number; said: () => string }> {
  const args = ['serve', '--port', '0', '--database', database, '--data-dir', tempDir(), '--config', config]
  const stopOnEnd = (child: ChildProcessWithoutNullStreams) =>
    started.push({
      stop: async () => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
        await exited(child)
      },
    })
  const { child, line, said } = await startFactdesk(args, environment(), stopOnEnd)
  const port = /^listening on http:\/\/127\.0\.0\.1:(\d+)\/api\/v1$/.exec(line)?.[1]
  if (!port || child.pid === undefined) throw new Error(`factdesk serve said: ${line}`)
  return { port: Number(port), pid: child.pid, said }
}

/// A round-robin reverse proxy on 127.0.0.1, as docs/team-server.md asks of one: each request goes to the next
/// replica in turn, with the `Host` the client sent; answers stream through as they come (`GET /events`), and one
/// that breaks off (its replica died) breaks off for the client too. A request that cannot reach its replica goes
/// to the next, and that replica is left out from then on. `X-Replica: N` sends a request to replica N only (as a
/// sticky session would): the test's streams on a replica of its choice.
async function startProxy(ports: readonly number[]): Promise<{ origin: string; served: number[] }> {
  const served: number[] = []
  const down = new Set<number>()
  let next = 0
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const pinned = request.headers['x-replica']
      const live = ports.map((_, index) => index).filter((index) => !down.has(index))
      const order =
        pinned !== undefined
          ? [Number(pinned)]
          : live.map((_, offset) => live[(next + offset) % live.length] as number)
      if (pinned === undefined) next = (next + 1) % Math.max(1, live.length)
      const headers = { ...request.headers }
      delete headers['x-replica']
      const attempt = (tried: number): void => {
        const replica = order[tried]
        if (replica === undefined) return void response.writeHead(502).end()
        const upstream = forward(
          {
            host: '127.0.0.1',
            port: ports[replica],
            method: request.method,
            path: request.url,
            headers,
            agent: false,
          },
          (answer) => {
            served.push(replica)
            response.writeHead(answer.statusCode ?? 502, answer.headers)
            answer.pipe(response)
            answer.on('close', () => {
              if (!answer.complete) response.destroy()
            })
          },
        )
        upstream.on('error', () => {
          if (response.headersSent) return void response.destroy()
          down.add(replica)
          attempt(tried + 1)
        })
        response.on('close', () => upstream.destroy())
        upstream.end(Buffer.concat(chunks))
      }
      attempt(0)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  started.push({
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  })
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, served }
}

/// A vote request a fake holds until the test lets it through.
interface Held {
  replica: number
  request: RecordedRequest
  release: () => void
}

/// The fake models of the replicas: every vote is held until released, or until the gate is opened for good; the
/// claims' statements are answered at once.
function heldModels(): {
  held: Held[]
  hold: (replica: number) => (request: RecordedRequest) => Promise<void> | undefined
  open: () => void
} {
  const held: Held[] = []
  let opened = false
  return {
    held,
    hold: (replica) => (request) =>
      opened || claimsToResolve(request)
        ? undefined
        : new Promise<void>((release) => held.push({ replica, request, release })),
    open: () => {
      opened = true
      for (const each of held) each.release()
    },
  }
}

/// A vote request as any replica writes it: the same model asked about the same claim.
const voteOf = (request: RecordedRequest): string => `${request.model}\n${request.user}`

/// An event as the stream sends it: a claim's (a vote or a consensus landed) or a check's, with its status and its
/// webhook's.
interface Update {
  type: string
  check?: { id: string; status: string; webhook: { status: string } | null }
}
const update = (event: StreamEvent): Update => JSON.parse(event.data) as Update

/// The check's ending (its webhook event queued) and the delivery of that event, as events tell them.
const ending = (event: StreamEvent): boolean =>
  update(event).check?.status === 'completed' && update(event).check?.webhook?.status === 'pending'
const delivered = (event: StreamEvent): boolean => update(event).check?.webhook?.status === 'delivered'

describe.skipIf(postgres.skip)('three factdesk serve replicas behind a proxy, one killed mid-check', () => {
  it('another replica takes the check over and ends it: one charge, each vote once, its ending told once, and a stream cut by the kill goes on elsewhere', async () => {
    const database = await postgres.database()
    const db = new pg.Client({ connectionString: database })
    await db.connect()
    started.push({ stop: () => db.end() })
    const rows = async <T>(sql: string, ...params: unknown[]): Promise<T[]> =>
      (await db.query(sql, params)).rows as T[]

    const models = heldModels()
    const fakes = await Promise.all(
      [0, 1, 2].map((replica) => startFakeOpenAI({ '*': { hold: models.hold(replica) } })),
    )
    for (const fake of fakes) started.push({ stop: () => fake.close() })
    const receiver: Receiver = await startReceiver()
    started.push({ stop: () => receiver.close() })

    // The replicas start together on the fresh database; a token is made meanwhile, by the command line.
    const [replicas, token] = await Promise.all([
      Promise.all(fakes.map((fake) => serve(database, configFile(fake)))),
      factdesk(
        ['token', 'create', '--scope', 'write', '--database', database, '--data-dir', tempDir()],
        environment(),
      ),
    ])
    expect(token.code, token.stderr).toBe(0)
    // Said before the ready line, on the other stream: it may come a moment later.
    for (const { said } of replicas)
      await expect.poll(said).toContain(`factdesk: leases of ${LEASE_MS} ms (from FACTDESK_LEASE_MS)\n`)
    const proxy = await startProxy(replicas.map((replica) => replica.port))
    const api = `${proxy.origin}/api/v1`
    const authorization = { Authorization: `Bearer ${token.stdout.trim()}` }
    const call = async (
      method: string,
      path: string,
      init: { body?: unknown; headers?: Record<string, string> } = {},
    ) => {
      const response = await fetch(`${api}${path}`, {
        method,
        headers: { ...authorization, 'Content-Type': 'application/json', ...init.headers },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      })
      return { status: response.status, json: (await response.json()) as any }
    }
    /// `GET /events` on replica `replica`, going on from `lastId` when given.
    const events = async (replica: number, lastId?: string): Promise<Response> => {
      const controller = new AbortController()
      started.push({ stop: () => controller.abort() })
      const response = await fetch(`${api}/events`, {
        headers: {
          ...authorization,
          'X-Replica': String(replica),
          ...(lastId ? { 'Last-Event-ID': lastId } : {}),
        },
        signal: controller.signal,
      })
      expect(response.status).toBe(200)
      return response
    }

    // A stream on every replica, from before the check.
    const streams: FollowedStream[] = []
    for (const replica of [0, 1, 2]) streams.push(followStream(await events(replica)))
    await expect.poll(() => streams.every((stream) => stream.opened)).toBe(true)
    const balance = (await call('GET', '/credits')).json.balance as number

    // Submitted with a key, and again with the same key: the second reaches the next replica, which replays it.
    const submission = {
      body: { text: THREE_CLAIMS, tiers: ['t2'], callbackUrl: `${receiver.origin}/hook` },
      headers: { 'Idempotency-Key': 'one-check-whatever-happens' },
    }
    const first = await call('POST', '/checks', submission)
    expect(first.status, JSON.stringify(first.json)).toBe(202)
    const again = await call('POST', '/checks', submission)
    expect(again.json.id).toBe(first.json.id)
    expect(proxy.served.at(-1)).not.toBe(proxy.served.at(-2))
    const checkId = first.json.id as string
    expect(first.json.claimCount).toBe(CLAIMS)

    // Every vote of the check is asked: the replica whose fake holds them is the one working on it.
    await expect.poll(() => models.held.length, { timeout: 30_000 }).toBe(CLAIMS * PANEL.length)
    const holding = [0, 1, 2].map((replica) => models.held.filter((each) => each.replica === replica).length)
    const victim = holding.indexOf(Math.max(...holding))
    const [survivor, other] = [0, 1, 2].filter((replica) => replica !== victim) as [number, number]
    // One vote lands: the check is half-way, and the victim's stream has told it.
    const landed = models.held.find((each) => each.replica === victim) as Held
    landed.release()
    const evaluations = async () =>
      (
        await rows<{ n: number }>('SELECT count(*)::int AS n FROM evaluations WHERE check_id = $1', checkId)
      )[0]?.n
    await expect.poll(evaluations, { timeout: 15_000 }).toBe(1)
    const cut = streams[victim] as FollowedStream
    await expect
      .poll(() => cut.events.some((event) => update(event).type === 'claim'), { timeout: 15_000 })
      .toBe(true)

    const unanswered = models.held
      .filter((each) => each.replica === victim && each !== landed)
      .map((each) => voteOf(each.request))
    expect(unanswered.length).toBeGreaterThan(0)
    const { pid } = replicas[victim] as { pid: number }
    process.kill(pid, 'SIGKILL')
    const killedAt = performance.now()
    // The stream on the dead replica breaks off; the held votes of the living are let through.
    await expect.poll(() => cut.ended, { timeout: 10_000 }).toBe(true)
    models.open()

    // Another replica takes the units over once their leases have expired, and ends the check.
    await expect
      .poll(async () => (await call('GET', `/checks/${checkId}`)).json.status, {
        timeout: 45_000,
        interval: 200,
      })
      .toBe('completed')
    const askedSince = fakes
      .filter((_, replica) => replica !== victim)
      .flatMap((fake) =>
        fake.requests.filter((request) => request.receivedAt > killedAt && !claimsToResolve(request)),
      )
      .map(voteOf)
    expect(askedSince.sort()).toEqual(expect.arrayContaining(unanswered))
    expect(askedSince).not.toContain(voteOf(landed.request))

    // Charged once, on whichever replica: one ledger row for the check, and the balance down by that much.
    const check = (await call('GET', `/checks/${checkId}`)).json
    expect(check.credits).toEqual({ charged: CLAIMS * 4, refunded: 0 })
    expect(
      await rows('SELECT kind, amount::int AS amount FROM ledger_entries WHERE subject = $1', checkId),
    ).toEqual([{ kind: 'charge', amount: CLAIMS * 4 }])
    expect((await call('GET', '/credits')).json.balance).toBe(balance - CLAIMS * 4)

    // Each claim's vote by each panel model stored once, each claim decided once, every unit done.
    const report = (await call('GET', `/checks/${checkId}/report`)).json
    const claims = (report.claims as { claimId: string }[]).map((claim) => claim.claimId).sort()
    expect(claims).toHaveLength(CLAIMS)
    expect(
      await rows(
        `SELECT claim_id, tier, model, round::int AS round, count(*)::int AS n FROM evaluations WHERE check_id = $1
         GROUP BY claim_id, tier, model, round ORDER BY claim_id, model`,
        checkId,
      ),
    ).toEqual(
      claims.flatMap((claim) =>
        PANEL.map((model) => ({ claim_id: claim, tier: 't2', model, round: 1, n: 1 })),
      ),
    )
    expect(
      await rows(
        'SELECT claim_id, count(*)::int AS n FROM consensus WHERE check_id = $1 GROUP BY claim_id ORDER BY claim_id',
        checkId,
      ),
    ).toEqual(claims.map((claim) => ({ claim_id: claim, n: 1 })))
    expect(
      await rows('SELECT status, count(*)::int AS n FROM units WHERE check_id = $1 GROUP BY status', checkId),
    ).toEqual([{ status: 'done', n: CLAIMS * (PANEL.length + 1) }])

    // One check.completed event, delivered once: its id is the one in the outbox.
    await expect.poll(() => receiver.requests.length, { timeout: 15_000 }).toBe(1)
    const [outboxed] = await rows<{ id: string; type: string }>(
      'SELECT id, type FROM webhook_events WHERE check_id = $1',
      checkId,
    )
    expect(outboxed?.type).toBe('check.completed')
    expect(receiver.requests[0]?.headers['x-svc-delivery']).toBe(outboxed?.id)
    expect(receiver.requests[0]?.json).toMatchObject({
      id: outboxed?.id,
      type: 'check.completed',
      data: { checkId },
    })

    // The living replicas' streams: every event of the table, in order, once, the ending told once; what the dead
    // replica did before it died (a vote landed) is on them as on its own stream, under the same ids.
    const reference = streams[survivor] as FollowedStream
    await expect.poll(() => reference.events.some(delivered), { timeout: 15_000 }).toBe(true)
    await expect
      .poll(() => (streams[other] as FollowedStream).events.some(delivered), { timeout: 15_000 })
      .toBe(true)
    const upTo = (seen: readonly StreamEvent[]) => seen.slice(0, seen.findIndex(delivered) + 1)
    const whole = upTo(reference.events)
    expect(upTo((streams[other] as FollowedStream).events)).toEqual(whole)
    const ids = whole.map((event) => Number(event.id))
    expect(ids).toEqual(
      (await rows<{ id: number }>('SELECT id::int AS id FROM events ORDER BY id'))
        .map((row) => row.id)
        .slice(0, ids.length),
    )
    expect(whole.filter(ending)).toHaveLength(1)
    const beforeTheKill = cut.events
    expect(beforeTheKill.length).toBeGreaterThan(0)
    expect(whole.slice(0, beforeTheKill.length)).toEqual(beforeTheKill)

    // The client whose stream the kill cut reconnects, to another replica, with the last id it had: it gets
    // exactly what it missed, then what comes next.
    const resumed = await readStream(
      await events(other, beforeTheKill.at(-1)?.id),
      (seen) => seen.some(delivered),
      15_000,
    )
    expect([...beforeTheKill, ...resumed]).toEqual(whole)
  }, 120_000)
})
