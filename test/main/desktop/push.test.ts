import { EventEmitter } from 'node:events'
import { describe, expect, it } from 'vitest'
import { OPENED_FILE_CHANNEL, REPORT_CHANNEL } from '../../../src/shared/api'
import { appPage } from '../../../src/main/desktop/appPage'
import { forwardReports, sendOpenedFile } from '../../../src/main/desktop/push'
import { ReportEvents } from '../../../src/main/engine/base/events'

const page = appPage(undefined)

function fakeContents(url: string) {
  const sent: { channel: string; update: unknown }[] = []
  let onDestroyed: (() => void) | null = null
  let destroyed = false
  return {
    sent,
    destroy: () => {
      destroyed = true
      onDestroyed?.()
    },
    contents: {
      send: (channel: string, update: unknown) => void sent.push({ channel, update }),
      getURL: () => url,
      isDestroyed: () => destroyed,
      once: (_event: 'destroyed', listener: () => void) => {
        onDestroyed = listener
      },
    } as never,
  }
}

const claimEvent = (organizationId: string) => ({
  type: 'claim' as const,
  organizationId,
  checkId: 'chk_1',
  claimId: 'clm_1',
  tier: 't1' as const,
  evaluation: null,
  consensus: null,
  issues: [],
})

describe('pushed report updates', () => {
  it("forwards only the organization's events, without the organization, until the page is gone", () => {
    const events = new ReportEvents()
    const window = fakeContents(`${page.href}#/`)
    forwardReports(events, 'org_1', window.contents, page)
    events.emit(claimEvent('org_1'))
    events.emit(claimEvent('org_2'))
    expect(window.sent).toHaveLength(1)
    expect(window.sent[0]?.channel).toBe(REPORT_CHANNEL)
    expect(window.sent[0]?.update).not.toHaveProperty('organizationId')
    expect(window.sent[0]?.update).toMatchObject({ type: 'claim', claimId: 'clm_1' })
    window.destroy()
    events.emit(claimEvent('org_1'))
    expect(window.sent).toHaveLength(1)
  })

  it('sends nothing to a window showing some other page', () => {
    const events = new ReportEvents()
    const window = fakeContents('https://evil.example/')
    forwardReports(events, 'org_1', window.contents, page)
    events.emit(claimEvent('org_1'))
    expect(window.sent).toEqual([])
  })
})

describe('a file the system asked to open', () => {
  function loadingWindow(url: string) {
    const sent: unknown[][] = []
    let loading = true
    const events = new EventEmitter()
    const contents = {
      send: (...args: unknown[]) => void sent.push(args),
      getURL: () => url,
      isDestroyed: () => false,
      isLoading: () => loading,
      once: (event: string, listener: () => void) => events.once(event, listener),
    }
    const load = (): void => {
      loading = false
      events.emit('did-finish-load')
    }
    return { sent, contents: contents as never, load }
  }

  it('is named to the page once it has loaded, where the preload listens', () => {
    const window = loadingWindow(page.href)
    sendOpenedFile(window.contents, page, { ok: true, data: 'drf_1' })
    expect(window.sent).toEqual([])
    window.load()
    expect(window.sent).toEqual([[OPENED_FILE_CHANNEL, { ok: true, data: 'drf_1' }]])
    sendOpenedFile(window.contents, page, { ok: true, data: 'drf_2' })
    expect(window.sent).toHaveLength(2)
  })

  it('is never named to another page', () => {
    const window = loadingWindow('https://evil.example/')
    window.load()
    sendOpenedFile(window.contents, page, { ok: true, data: 'drf_1' })
    expect(window.sent).toEqual([])
  })
})
