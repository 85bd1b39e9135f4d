import { EventEmitter } from 'node:events'
import type { Session, WebContents } from 'electron'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { channelOf, FILE_OPERATIONS, OPERATIONS, REPORT_CHANNEL } from '../../src/shared/api'
import { appPage } from '../../src/main/desktop/appPage'
import { guardNavigation } from '../../src/main/desktop/guards'
import { registerIpc } from '../../src/main/desktop/ipc'
import { secureSession } from '../../src/main/desktop/session'

// The Electron binary is not available here: the shell's modules run against a stand-in for the 'electron'
// module that records what they ask of it.
const electron = vi.hoisted(() => ({
  contextBridge: { exposeInMainWorld: vi.fn() },
  ipcRenderer: { invoke: vi.fn(), on: vi.fn(), removeListener: vi.fn() },
  ipcMain: { handle: vi.fn() },
  shell: { openExternal: vi.fn(() => Promise.resolve()) },
}))
vi.mock('electron', () => electron)

const page = appPage(undefined, '/opt/Factdesk/out/renderer/index.html')

beforeEach(() => {
  vi.clearAllMocks()
})

describe('the preload', () => {
  it('exposes one function per operation and the report subscription, each passing its IpcResult through', async () => {
    await import('../../src/preload/index')
    expect(electron.contextBridge.exposeInMainWorld).toHaveBeenCalledTimes(1)
    const [key, api] = electron.contextBridge.exposeInMainWorld.mock.calls[0] as [
      string,
      Record<string, unknown>,
    ]
    expect(key).toBe('factdesk')
    expect(Object.keys(api).sort()).toEqual([...OPERATIONS, 'files', 'onReport'].sort())
    expect(Object.keys(api.files as object).sort()).toEqual([...FILE_OPERATIONS].sort())

    // A failure stays a plain result: an Error thrown here would lose its code crossing the context bridge.
    const failed = {
      ok: false,
      error: { code: 'insufficient_credits', message: 'Not enough.', details: null },
    }
    electron.ipcRenderer.invoke.mockResolvedValue(failed)
    for (const operation of OPERATIONS) {
      const method = api[operation] as (...args: unknown[]) => Promise<unknown>
      await expect(method('an argument')).resolves.toBe(failed)
      expect(electron.ipcRenderer.invoke).toHaveBeenLastCalledWith(channelOf(operation), 'an argument')
    }

    // The subscription listens on the one report channel and hands the page the update alone, never the event.
    const heard: unknown[] = []
    const stop = (api.onReport as (listener: (update: unknown) => void) => () => void)((update) =>
      heard.push(update),
    )
    const [channel, forward] = electron.ipcRenderer.on.mock.calls[0] as unknown as [
      string,
      (event: unknown, update: unknown) => void,
    ]
    expect(channel).toBe(REPORT_CHANNEL)
    forward({ sender: 'the IPC event' }, { type: 'check' })
    expect(heard).toEqual([{ type: 'check' }])
    stop()
    expect(electron.ipcRenderer.removeListener).toHaveBeenCalledWith(REPORT_CHANNEL, forward)
  })
})

describe('the IPC registration', () => {
  it("hands every operation's arguments and sender frame URL to the dispatch", async () => {
    const dispatch = vi.fn(() => Promise.resolve({ ok: true as const, data: 'answer' }))
    registerIpc(dispatch)
    const handlers = new Map(
      electron.ipcMain.handle.mock.calls.map(
        (call) => call as unknown as [string, (...a: unknown[]) => unknown],
      ),
    )
    expect([...handlers.keys()].sort()).toEqual(OPERATIONS.map(channelOf).sort())

    const handle = handlers.get(channelOf('me'))
    await expect(handle?.({ senderFrame: { url: page.href } }, 1, 2)).resolves.toEqual({
      ok: true,
      data: 'answer',
    })
    expect(dispatch).toHaveBeenLastCalledWith('me', [1, 2], page.href)
    // A frame that is gone has no URL: the dispatch refuses it.
    await handle?.({ senderFrame: null })
    expect(dispatch).toHaveBeenLastCalledWith('me', [], undefined)
  })
})

describe('the navigation guard', () => {
  function guarded() {
    const contents = Object.assign(new EventEmitter(), { setWindowOpenHandler: vi.fn() })
    guardNavigation(contents as unknown as WebContents, page)
    const openHandler = contents.setWindowOpenHandler.mock.calls[0]?.[0] as (details: {
      url: string
    }) => unknown
    const navigate = (url: string): boolean => {
      const event = { url, preventDefault: vi.fn() }
      contents.emit('will-navigate', event)
      return event.preventDefault.mock.calls.length === 0
    }
    return { navigate, openHandler }
  }

  it("lets the page move within itself, and sends web links to the user's browser", () => {
    const { navigate } = guarded()
    expect(navigate(`${page.href}#/settings`)).toBe(true)
    expect(navigate('https://en.wikipedia.org/wiki/Moon')).toBe(false)
    expect(electron.shell.openExternal).toHaveBeenCalledWith('https://en.wikipedia.org/wiki/Moon')
  })

  it('never opens other schemes outside', () => {
    const { navigate, openHandler } = guarded()
    expect(navigate('file:///etc/passwd')).toBe(false)
    expect(openHandler({ url: 'smb://host/share' })).toEqual({ action: 'deny' })
    expect(electron.shell.openExternal).not.toHaveBeenCalled()
  })

  it('opens no window of its own', () => {
    const { openHandler } = guarded()
    expect(openHandler({ url: 'https://example.com/' })).toEqual({ action: 'deny' })
    expect(openHandler({ url: page.href })).toEqual({ action: 'deny' })
    expect(electron.shell.openExternal).toHaveBeenCalledTimes(1)
  })
})

describe('the session', () => {
  it('puts the policy on every response and refuses every permission', () => {
    const webRequest = { onHeadersReceived: vi.fn() }
    const session = { webRequest, setPermissionRequestHandler: vi.fn(), setPermissionCheckHandler: vi.fn() }
    secureSession(session as unknown as Session, "default-src 'self'")

    const onHeaders = webRequest.onHeadersReceived.mock.calls[0]?.[0] as (
      d: unknown,
      cb: (r: unknown) => void,
    ) => void
    const headers = vi.fn()
    onHeaders({ responseHeaders: { 'Content-Type': ['text/html'] } }, headers)
    expect(headers).toHaveBeenCalledWith({
      responseHeaders: { 'Content-Type': ['text/html'], 'Content-Security-Policy': ["default-src 'self'"] },
    })

    const onRequest = session.setPermissionRequestHandler.mock.calls[0]?.[0] as (...a: unknown[]) => void
    const granted = vi.fn()
    onRequest({}, 'media', granted)
    expect(granted).toHaveBeenCalledWith(false)
    const onCheck = session.setPermissionCheckHandler.mock.calls[0]?.[0] as (...a: unknown[]) => unknown
    expect(onCheck({}, 'notifications')).toBe(false)
  })
})
