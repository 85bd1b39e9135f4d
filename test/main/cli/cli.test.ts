import { spawn } from 'node:child_process'
import { existsSync, openSync, writeFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { createServer, type AddressInfo } from 'node:net'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openEngine } from '../../../src/main/engine/engine'
import { Report } from '../../../src/shared/schemas'
import { CLI, exited, factdesk, spawnFactdesk, startFactdesk } from '../../helpers/cli'
import { tempDir } from '../../helpers/server'

// Each run of the CLI compiles it on start (about 2 s here, several under load): the tests that run it many times
// get room for that, where the suite's default of 20 s was passed on a busy machine.
describe('factdesk org, token and credits', { timeout: 120_000 }, () => {
  it('creates an organization and a token, lists, grants and revokes', async () => {
    const dir = tempDir()
    const org = await factdesk(['org', 'create', 'Acme Press', '--credits', '50', '--data-dir', dir])
    expect(org.code).toBe(0)
    expect(org.stdout).toMatch(/^org_[0-9a-z]+\n$/)
    const orgId = org.stdout.trim()

    const created = await factdesk([
      'token',
      'create',
      '--scope',
      'write',
      '--org',
      orgId,
      '--name',
      'ci',
      '--data-dir',
      dir,
    ])
    expect(created.code).toBe(0)
    expect(created.stdout).toMatch(/^fdk_[A-Za-z0-9_-]{43}\n$/)
    const value = created.stdout.trim()

    const list = await factdesk(['token', 'list', '--data-dir', dir])
    expect(list.stdout).toMatch(/ID +ORGANIZATION +SCOPE +STATE/)
    expect(list.stdout).toContain(orgId)
    expect(list.stdout).not.toContain(value)

    const granted = await factdesk(['credits', 'grant', '--org', orgId, '25', '--data-dir', dir])
    expect(granted.stdout.trim()).toBe('balance 75')

    const engine = await openEngine({ dataDir: dir })
    const principal = await engine.service.authenticate(value)
    expect((await engine.service.credits(principal)).balance).toBe(75)
    await engine.close()

    const tokenId =
      list.stdout
        .split('\n')
        .find((line) => line.includes(orgId))
        ?.split(/\s+/)[0] ?? ''
    expect((await factdesk(['token', 'revoke', tokenId, '--data-dir', dir])).code).toBe(0)
    const after = await openEngine({ dataDir: dir })
    await expect(after.service.authenticate(value)).rejects.toThrow(/not valid/)
    await after.close()
    // One word per column: the time of revocation has a column of its own.
    const table = (await factdesk(['token', 'list', '--data-dir', dir])).stdout.trim().split('\n')
    const revoked = table.map((line) => line.split(/ +/)).find((cells) => cells[0] === tokenId)
    expect(table[0]?.split(/ +/)).toEqual([
      'ID',
      'ORGANIZATION',
      'SCOPE',
      'STATE',
      'CREATED',
      'REVOKED',
      'NAME',
    ])
    expect(revoked?.slice(2, 7)).toEqual([
      'write',
      'revoked',
      expect.stringMatching(/^20/),
      expect.stringMatching(/^20/),
      'ci',
    ])
  })

  it('revokes a new token that cannot be written, so that no one holds it unknowingly', async () => {
    const dir = tempDir()
    const child = spawn(process.execPath, [...CLI, 'token', 'create', '--scope', 'write'], {
      env: { ...process.env, FACTDESK_DATA_DIR: dir },
      stdio: ['ignore', openSync('/dev/full', 'w'), 'pipe'],
    })
    let stderr = ''
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    expect(await new Promise((resolve) => child.once('exit', resolve))).toBe(1)
    expect(stderr).toMatch(
      /^factdesk: Cannot write the token \(ENOSPC.*\); it was revoked\. Create another\.\n$/,
    )
    const list = await factdesk(['token', 'list', '--data-dir', dir])
    expect(list.stdout.trim().split('\n').slice(1)).toEqual([
      expect.stringMatching(/ write +revoked +20\S+ +20/),
    ])
  })

  it('a token without --org belongs to the default organization with its 1,000 credits', async () => {
    const dir = tempDir()
    const value = (await factdesk(['token', 'create', '--scope', 'read', '--data-dir', dir])).stdout.trim()
    const engine = await openEngine({ dataDir: dir })
    const principal = await engine.service.authenticate(value)
    expect(principal.scope).toBe('read')
    expect((await engine.service.me(principal)).organization.name).toBe('Default organization')
    expect((await engine.service.credits(principal)).balance).toBe(1000)
    await engine.close()
  })

  it('FACTDESK_DATA_DIR chooses the data folder', async () => {
    const dir = tempDir()
    process.env.FACTDESK_DATA_DIR = dir
    try {
      expect((await factdesk(['org', 'create', 'Env'])).code).toBe(0)
    } finally {
      delete process.env.FACTDESK_DATA_DIR
    }
    expect(existsSync(join(dir, 'factdesk.db'))).toBe(true)
  })

  it('mistakes get a readable message and a non-zero exit', async () => {
    const dir = tempDir()
    const cases: [string[], number, RegExp][] = [
      [['token', 'create', '--scope', 'admin'], 2, /--scope must be read or write/],
      [['token', 'create', '--scope', 'read', '--org', 'org_nope'], 1, /There is no organization org_nope/],
      [['credits', 'grant', '--org', 'x', 'ten'], 2, /AMOUNT must be a whole number/],
      [['credits', 'grant', '--org', 'x', '10'], 1, /There is no organization x/],
      [['org', 'create'], 2, /Usage: factdesk org create/],
      [['token', 'revoke', 'tok_nope'], 1, /There is no token tok_nope/],
      [['token', 'list', '--org', 'org_nope'], 1, /There is no organization org_nope/],
      [['token', 'list', '--config', ''], 2, /--config must name a file/],
      [['launch'], 2, /Unknown command "launch"/],
      [['serve', '--port', 'eighty'], 2, /--port must be a whole number/],
      [['serve', '--bogus'], 2, /Unknown option '--bogus'/],
      [['serve', '--host', ''], 2, /--host must be an address of this computer/],
      [['check', join(dir, 'missing.md')], 1, /^factdesk: Cannot read .*missing\.md: ENOENT/],
    ]
    for (const [args, code, message] of cases) {
      const result = await factdesk([...args, '--data-dir', dir])
      expect(result.code, args.join(' ')).toBe(code)
      expect(result.stderr, args.join(' ')).toMatch(message)
    }
    // An empty --data-dir (an unset shell variable, say) is not the default folder.
    const empty = await factdesk(['token', 'list', '--data-dir', ''])
    expect(empty.code).toBe(2)
    expect(empty.stderr).toMatch(/--data-dir must name a folder/)
    // Leases longer than LEASE_MS would leave a dead replica's work waiting longer; a lease is no duration in words.
    for (const lease of ['60000', '3s']) {
      const result = await factdesk(['token', 'list', '--data-dir', dir], {
        ...process.env,
        FACTDESK_LEASE_MS: lease,
      })
      expect(result.code, lease).toBe(1)
      expect(result.stderr, lease).toBe(
        `factdesk: FACTDESK_LEASE_MS must be a whole number of milliseconds from 300 to 30000, not "${lease}".\n`,
      )
    }
    const file = join(dir, 'factdesk.db')
    for (const folder of [file, join(file, 'sub')]) {
      const inTheWay = await factdesk(['token', 'list', '--data-dir', folder])
      expect(inTheWay.code).toBe(1)
      expect(inTheWay.stderr).toBe(
        `factdesk: The data folder ${folder} cannot be used: a file is in the way.\n`,
      )
    }
  })

  it('--help after any command prints the usage, with the exit statuses', async () => {
    for (const args of [['--help'], ['check', '--help'], ['serve', '-h']]) {
      const result = await factdesk(args)
      expect(result.code, args.join(' ')).toBe(0)
      expect(result.stdout).toMatch(/^Usage: factdesk <command>/)
      expect(result.stdout).toContain('Exit status: 0 done, 1 failed')
    }
  })

  it('names the member at fault in an invalid config file, and takes one that starts with a byte-order mark', async () => {
    const dir = tempDir()
    const withConfig = (content: string) => {
      const config = join(dir, 'config.json')
      writeFileSync(config, content)
      return factdesk(['token', 'list', '--data-dir', dir, '--config', config])
    }
    const invalid = await withConfig('{"pricing":{"t3":"ten"}}')
    expect(invalid.code).toBe(1)
    expect(invalid.stderr).toMatch(/pricing\.t3: .*expected number/)
    // As editors on Windows write it.
    expect((await withConfig('\uFEFF{"pricing":{"t1":2}}')).code).toBe(0)
  })
})

describe('factdesk serve', () => {
  it('prints one line when ready, answers on 127.0.0.1, and stops cleanly on SIGTERM', async () => {
    const dir = tempDir()
    const token = (await factdesk(['token', 'create', '--scope', 'read', '--data-dir', dir])).stdout.trim()
    const { child, line } = await startFactdesk(['serve', '--port', '0', '--data-dir', dir])
    expect(line).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+\/api\/v1$/)
    const base = line.replace('listening on ', '')
    const me = await fetch(`${base}/me`, { headers: { Authorization: `Bearer ${token}` } })
    expect(me.status).toBe(200)
    expect(existsSync(join(dir, 'engine.lock'))).toBe(true)

    const second = await factdesk(['serve', '--port', '0', '--data-dir', dir])
    expect(second.code).toBe(1)
    expect(second.stderr).toMatch(/in use by another Factdesk engine/)

    child.kill('SIGTERM')
    expect(await exited(child)).toBe(0)
    expect(existsSync(join(dir, 'engine.lock'))).toBe(false)
  })

  it('on SIGTERM ends the event streams at once and lets a request in flight finish', async () => {
    const dir = tempDir()
    const token = (await factdesk(['token', 'create', '--scope', 'write', '--data-dir', dir])).stdout.trim()
    const { child, line } = await startFactdesk(['serve', '--port', '0', '--data-dir', dir])
    const url = new URL(line.replace('listening on ', ''))
    const stream = await fetch(`${url.href}/events`, { headers: { Authorization: `Bearer ${token}` } })
    const streamEnded = stream.text()
    // An estimate whose body arrives slowly: half now, the rest 1.5 s after the stop began.
    const body = Buffer.from(JSON.stringify({ text: 'The Eiffel Tower is 330 metres tall.', tiers: ['t1'] }))
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: `${url.pathname}/checks/estimate`,
          method: 'POST',
          headers: {
            Authorization: `Bearer ${token}`,
            'Content-Type': 'application/json',
            'Content-Length': body.length,
          },
        },
        (response) => {
          let text = ''
          response.on('data', (chunk: Buffer) => (text += chunk.toString()))
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }))
          response.on('error', reject)
        },
      )
      request.on('error', reject)
      request.write(body.subarray(0, 10))
      setTimeout(() => {
        child.kill('SIGTERM')
        setTimeout(() => request.end(body.subarray(10)), 1500)
      }, 300)
    })
    const started = Date.now()
    await streamEnded
    expect(Date.now() - started).toBeLessThan(1500)
    const estimate = await answer
    expect(estimate.status).toBe(200)
    expect(JSON.parse(estimate.body)).toMatchObject({ claims: [expect.objectContaining({ charStart: 0 })] })
    expect(await exited(child)).toBe(0)
  })

  it('says so in words when the port is in use', async () => {
    const taken = createServer()
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve))
    const { port } = taken.address() as AddressInfo
    const result = await factdesk(['serve', '--port', String(port), '--data-dir', tempDir()])
    taken.close()
    expect(result.code).toBe(1)
    expect(result.stderr.trim()).toBe(
      `factdesk: Port ${port} is in use on 127.0.0.1: choose another with --port.`,
    )
  })
})

/// The balance of the default organization of a data folder, read once its command has ended.
async function balanceOf(dataDir: string): Promise<number> {
  const engine = await openEngine({ dataDir })
  try {
    return (await engine.service.credits(await engine.localPrincipal())).balance
  } finally {
    await engine.close()
  }
}

describe('factdesk check', () => {
  it('runs a t1 check of a file and prints a readable report, or the report JSON', async () => {
    const dir = tempDir()
    const file = join(dir, 'article.md')
    writeFileSync(file, '# Paris\n\nThe letter was recieved in 1932 by the mayor of Paris.\n')
    const readable = await factdesk(['check', file, '--tiers', 't1', '--data-dir', join(dir, 'data')])
    expect(readable.code).toBe(0)
    const line =
      /^Check (chk_[0-9a-z]+) completed: export it with factdesk export \1 --format html\|pdf\|docx\|md\|json\|claimreview$/m
    expect(readable.stderr).toMatch(
      /^1 claim, 1 credit\nbalance 999 after the charge\nCheck chk_[0-9a-z]+ completed: .*\n$/,
    )
    const checkId = line.exec(readable.stderr)?.[1]
    expect(readable.stdout).not.toContain('export it with')
    expect(readable.stdout).toMatch(/^article\.md: 1 claim, t1, completed \(charged 1, refunded 0\)/)
    expect(readable.stdout).toContain('1. "The letter was recieved in 1932 by the mayor of Paris."')
    expect(readable.stdout).toMatch(/t1: issues/)
    expect(readable.stdout).toMatch(/"recieved" → "received"/)

    const json = await factdesk(['check', file, '--tiers', 't1', '--json', '--data-dir', join(dir, 'data')])
    expect(json.code).toBe(0)
    // Stdout is one JSON document, the whole report; the check's line is on stderr.
    const report = Report.parse(JSON.parse(json.stdout))
    expect(report.check).toMatchObject({ status: 'completed', name: 'article.md', claimCount: 1 })
    expect(json.stderr).toContain(
      `Check ${report.check.id} completed: export it with factdesk export ${report.check.id}`,
    )

    // The id printed is the one `factdesk export` takes.
    expect(checkId).toBeDefined()
    const exported = await factdesk([
      'export',
      checkId ?? '',
      '--format',
      'md',
      '--data-dir',
      join(dir, 'data'),
    ])
    expect(exported.code).toBe(0)
    // Titled with the article's headline, not its file's name.
    expect(exported.stdout).toContain('Fact-check report: Paris')
    expect(report.claims[0]?.consensus.t1?.verdict).toBe('issues')
    expect(report.summary.verdicts).toEqual({ issues: 1 })
  }, 60_000)

  it('--since CHECK_ID checks only the claims that changed since that check', async () => {
    const dir = tempDir()
    const file = join(dir, 'article.md')
    const data = ['--data-dir', join(dir, 'data')]
    const paragraphs = [
      'The letter was recieved in 1932 by the mayor of Paris.',
      'The Eiffel Tower is 330 metres tall and was finished in 1889.',
    ]
    writeFileSync(file, paragraphs.join('\n\n'))
    const first = Report.parse(JSON.parse((await factdesk(['check', file, '--json', ...data])).stdout))
    writeFileSync(file, [paragraphs[0], paragraphs[1]!.replace('1889', '1887')].join('\n\n'))
    const again = await factdesk(['check', file, '--since', first.check.id, '--json', ...data])
    expect(again.stderr).toMatch(/2 claims \(1 unchanged, kept\), 1 credit/)
    const report = Report.parse(JSON.parse(again.stdout))
    expect(report.check.credits.charged).toBe(1)
    expect(report.claims.map((claim) => claim.carriedFrom)).toEqual([first.check.id, null])
    expect(report.claims[0]?.issues).toEqual(first.claims[0]?.issues)

    const unknown = await factdesk(['check', file, '--since', 'chk_nope', ...data])
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toMatch(/previousCheckId chk_nope is not a completed check of this organization/)
    expect(await balanceOf(join(dir, 'data'))).toBe(1000 - 2 - 1)
  }, 60_000)

  it('reads the file as UTF-8 text: a byte-order mark dropped, a binary file refused before any charge', async () => {
    const dir = tempDir()
    const marked = join(dir, 'windows.txt')
    writeFileSync(marked, '\uFEFFThe Eiffel Tower is 330 metres tall.\r\nIt was built in 1889 in Paris.\r\n')
    const json = await factdesk(['check', marked, '--json', '--data-dir', join(dir, 'data')])
    expect(json.code).toBe(0)
    const report = Report.parse(JSON.parse(json.stdout))
    expect(report.claims.map((claim) => [claim.text, claim.charStart])).toEqual([
      ['The Eiffel Tower is 330 metres tall.', 0],
      ['It was built in 1889 in Paris.', 37],
    ])

    const binary = join(dir, 'program')
    writeFileSync(binary, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x00, 0x00, 0x41, 0x42]))
    const refused = await factdesk(['check', binary, '--data-dir', join(dir, 'data')])
    expect(refused.code).toBe(1)
    expect(refused.stderr.trim()).toBe(`factdesk: "${binary}" is a binary file, not text.`)
    const latin1 = join(dir, 'latin1.txt')
    writeFileSync(latin1, Buffer.from('Caf\xe9 de Flore opened in 1887.', 'latin1'))
    expect((await factdesk(['check', latin1, '--data-dir', join(dir, 'data')])).stderr).toMatch(
      /is not UTF-8 text/,
    )
    expect(await balanceOf(join(dir, 'data'))).toBe(998)
  }, 60_000)

  it('shows control characters of the text as escapes instead of sending them to the terminal', async () => {
    const dir = tempDir()
    const file = join(dir, 'escape.txt')
    writeFileSync(file, 'The tower \u001b[2Jis 330 metres tall since 1889.\n')
    const result = await factdesk(['check', file, '--data-dir', join(dir, 'data')])
    expect(result.stdout).toContain('1. "The tower \\u001b[2Jis 330 metres tall since 1889."')
    expect(result.stdout).not.toContain('\u001b')
  }, 60_000)

  it('Ctrl+C cancels the running check and refunds it; a reader that stops early ends it quietly', async () => {
    const dir = tempDir()
    const file = join(dir, 'long.txt')
    writeFileSync(file, 'The tower in Paris was finished in 1889 by 300 workers. '.repeat(900))
    const child = spawnFactdesk(['check', file, '--data-dir', join(dir, 'data')])
    let stdout = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    const { code, said: stderr } = await interruptOnceStarted(child)
    expect(code).toBe(1)
    expect(stderr).toMatch(/Cancelling the check chk_\w+; its credits are refunded\./)
    expect(stdout).toMatch(/^long\.txt: 900 claims, t1, cancelled \(charged 900, refunded 900\)/)

    const piped = spawnFactdesk(['check', file, '--json', '--data-dir', join(dir, 'data')])
    let errors = ''
    piped.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()))
    piped.stdout.once('data', () => piped.stdout.destroy())
    expect(await exited(piped)).toBe(0)
    expect(errors).not.toMatch(/EPIPE|\n\s+at /)
    expect(await balanceOf(join(dir, 'data'))).toBe(100)

    // A reader gone before a check that did not complete: its exit status still says so.
    const gone = spawnFactdesk(['check', file, '--data-dir', join(dir, 'fresh')])
    gone.stdout.destroy()
    const { code: goneCode, said } = await interruptOnceStarted(gone)
    expect(goneCode).toBe(1)
    expect(said).toMatch(/Cancelling the check chk_\w+/)
    expect(said).not.toMatch(/EPIPE|\n\s+at /)
  }, 120_000)
})

/// Presses Ctrl+C on a `factdesk check` of 900 claims once it has started; resolves with its exit status and
/// what it wrote to standard error.
async function interruptOnceStarted(
  child: ReturnType<typeof spawnFactdesk>,
): Promise<{ code: number | null; said: string }> {
  let said = ''
  await new Promise<void>((resolve) =>
    child.stderr.on('data', (chunk: Buffer) => {
      said += chunk.toString()
      if (said.includes('900 claims')) resolve()
    }),
  )
  child.kill('SIGINT')
  const code = await exited(child)
  return { code, said }
}
