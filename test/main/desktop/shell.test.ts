import { EventEmitter } from 'node:events'
import type { Session } from 'electron'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import {
  channelOf,
  FILE_OPERATIONS,
  OPENED_FILE_CHANNEL,
  OPERATIONS_CHANNEL,
  REPORT_CHANNEL,
} from '../../../src/shared/api'
import { OPERATIONS } from '../../../src/shared/operations'
import { appPage } from '../../../src/main/desktop/appPage'
import { guardEveryWebContents } from '../../../src/main/desktop/guards'
import { registerIpc } from '../../../src/main/desktop/ipc'
import { secureSession } from '../../../src/main/desktop/session'

// The Electron binary is not available here: the shell's modules run against a stand-in for the 'electron'
// module that records what they ask of it.
const electron = vi.hoisted(() => ({
  app: { on: vi.fn() },
  contextBridge: { exposeInMainWorld: vi.fn() },
  ipcRenderer: { invoke: vi.fn(), on: vi.fn(), removeListener: vi.fn(), sendSync: vi.fn() },
  ipcMain: { handle: vi.fn(), on: vi.fn() },
  shell: { openExternal: vi.fn(() => Promise.resolve()) },
}))
vi.mock('electron', () => electron)

const page = appPage(undefined)

/// The listener the preload put on `channel`.
function listenerOn(channel: string): (event: unknown, value: unknown) => void {
  const call = electron.ipcRenderer.on.mock.calls.find((args: unknown[]) => args[0] === channel)
  return (call as unknown as [string, (event: unknown, value: unknown) => void])[1]
}

beforeEach(() => {
  vi.clearAllMocks()
})

describe('the preload', () => {
  it('exposes one function per operation and the report subscription, each passing its IpcResult through', async () => {
    // The main process names the operations (registerIpc, below).
    electron.ipcRenderer.sendSync.mockImplementation((channel: string) =>
      channel === OPERATIONS_CHANNEL ? OPERATIONS : undefined,
    )
    await import('../../../src/preload/index')
    expect(electron.contextBridge.exposeInMainWorld).toHaveBeenCalledTimes(1)
    const [key, api] = electron.contextBridge.exposeInMainWorld.mock.calls[0] as [
      string,
      Record<string, unknown>,
    ]
    expect(key).toBe('factdesk')
    expect(Object.keys(api).sort()).toEqual([...OPERATIONS, 'files', 'onOpenedFile', 'onReport'].sort())
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
    const forward = listenerOn(REPORT_CHANNEL)
    forward({ sender: 'the IPC event' }, { type: 'check' })
    expect(heard).toEqual([{ type: 'check' }])
    stop()
    expect(electron.ipcRenderer.removeListener).toHaveBeenCalledWith(REPORT_CHANNEL, forward)

    // A file the system asked to open may be named before the page listens: it is kept until it does.
    const opened = listenerOn(OPENED_FILE_CHANNEL)
    opened({}, { ok: true, data: 'drf_1' })
    const shown: unknown[] = []
    const stopOpened = (api.onOpenedFile as (listener: (opened: unknown) => void) => () => void)((result) =>
      shown.push(result),
    )
    expect(shown).toEqual([{ ok: true, data: 'drf_1' }])
    opened({}, { ok: true, data: 'drf_2' })
    expect(shown).toEqual([
      { ok: true, data: 'drf_1' },
      { ok: true, data: 'drf_2' },
    ])
    stopOpened()
    opened({}, { ok: true, data: 'drf_3' })
    expect(shown).toHaveLength(2)
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
    // The preload asks the operations' names as it starts.
    const [channel, names] = electron.ipcMain.on.mock.calls[0] as unknown as [
      string,
      (event: { returnValue?: unknown }) => void,
    ]
    expect(channel).toBe(OPERATIONS_CHANNEL)
    const event: { returnValue?: unknown } = {}
    names(event)
    expect(event.returnValue).toEqual(OPERATIONS)

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

describe('the guard on every webContents', () => {
  // A webContents the app makes (the editor's window, the PDF export's): what each of its events is answered.
  function guarded() {
    guardEveryWebContents(page)
    const [event, created] = electron.app.on.mock.calls[0] as unknown as [
      string,
      (event: unknown, contents: unknown) => void,
    ]
    expect(event).toBe('web-contents-created')
    const contents = Object.assign(new EventEmitter(), { setWindowOpenHandler: vi.fn() })
    created({}, contents)
    const openHandler = contents.setWindowOpenHandler.mock.calls[0]?.[0] as (details: {
      url: string
    }) => unknown
    // Whether the event was let through.
    const allowed = (name: string, details: object): boolean => {
      const event = { ...details, preventDefault: vi.fn() }
      contents.emit(name, event)
      return event.preventDefault.mock.calls.length === 0
    }
    const navigate = (url: string): boolean => allowed('will-navigate', { url })
    return { allowed, navigate, openHandler }
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

  it('refuses redirects, frames and webviews', () => {
    const { allowed } = guarded()
    expect(allowed('will-redirect', { url: 'https://evil.example/', isMainFrame: true })).toBe(false)
    expect(allowed('will-redirect', { url: page.href, isMainFrame: true })).toBe(true)
    expect(allowed('will-frame-navigate', { url: page.href, isMainFrame: false })).toBe(false)
    expect(allowed('will-frame-navigate', { url: 'https://evil.example/', isMainFrame: true })).toBe(false)
    expect(allowed('will-frame-navigate', { url: `${page.href}#/`, isMainFrame: true })).toBe(true)
    expect(allowed('will-attach-webview', {})).toBe(false)
    // Refused frames and redirects are not handed to the browser: only a link the page followed is.
    expect(electron.shell.openExternal).not.toHaveBeenCalled()
  })
})

describe('the session', () => {
  it('puts the policy on every response and grants only copying, to the app page', () => {
    const webRequest = { onHeadersReceived: vi.fn() }
    const session = { webRequest, setPermissionRequestHandler: vi.fn(), setPermissionCheckHandler: vi.fn() }
    secureSession(session as unknown as Session, "default-src 'self'", page)

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
    const contents = { getURL: () => page.href }
    onRequest(contents, 'media', granted, { requestingUrl: page.href })
    expect(granted).toHaveBeenLastCalledWith(false)
    onRequest(contents, 'clipboard-sanitized-write', granted, { requestingUrl: page.href })
    expect(granted).toHaveBeenLastCalledWith(true)
    onRequest(contents, 'clipboard-sanitized-write', granted, { requestingUrl: 'https://evil.example/' })
    expect(granted).toHaveBeenLastCalledWith(false)

    const onCheck = session.setPermissionCheckHandler.mock.calls[0]?.[0] as (...a: unknown[]) => unknown
    expect(onCheck(contents, 'notifications', 'app://factdesk', {})).toBe(false)
    expect(onCheck(contents, 'clipboard-sanitized-write', 'app://factdesk/', {})).toBe(true)
    // A frame of another origin inside the page: Electron gives no URL, and its origin is not the page's.
    expect(onCheck(contents, 'clipboard-sanitized-write', 'https://evil.example', {})).toBe(false)
    expect(onCheck(null, 'clipboard-sanitized-write', 'app://factdesk', {})).toBe(false)
  })
})
