import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { channelOf, OPENED_FILE_CHANNEL } from '../../../src/shared/api'
import { CONTENT_SECURITY_POLICY } from '../../../src/shared/csp'
import { JS_FLAGS } from '../../../src/main/desktop/launch'
import { tempDir } from '../../helpers/server'

// The desktop app's main process (src/main/index.ts) started against a stand-in for the 'electron' module, as
// shell.test.ts does for the preload: the engine, the data folder and the files are real; what the shell asks of
// Electron is recorded. The Electron binary itself is not available here.

type Listener = (...args: any[]) => unknown

/// The little of Node's EventEmitter the stand-ins need (vi.hoisted runs before any import).
const electron = vi.hoisted(() => {
  const emitter = () => {
    const listeners = new Map<string, Listener[]>()
    return {
      on(event: string, listener: Listener) {
        listeners.set(event, [...(listeners.get(event) ?? []), listener])
        return this
      },
      once(event: string, listener: Listener) {
        const once: Listener = (...args) => {
          listeners.set(
            event,
            (listeners.get(event) ?? []).filter((l) => l !== once),
          )
          return listener(...args)
        }
        return this.on(event, once)
      },
      emit(event: string, ...args: unknown[]) {
        for (const listener of listeners.get(event) ?? []) listener(...args)
      },
    }
  }
  let ready: () => void = () => undefined
  const whenReady = new Promise<void>((resolve) => (ready = resolve))
  const windows: any[] = []
  class BrowserWindow {
    readonly events = emitter()
    readonly options: unknown
    url = ''
    destroyed = false
    readonly webContents = Object.assign(emitter(), {
      loading: true,
      sent: [] as unknown[][],
      send: (...args: unknown[]) => this.webContents.sent.push(args),
      getURL: () => this.url,
      isLoading: () => this.webContents.loading,
      isDestroyed: () => this.destroyed,
      setWindowOpenHandler: () => undefined,
      printToPDF: async () => Buffer.from('%PDF-1.7'),
    })
    constructor(options: unknown) {
      this.options = options
      windows.push(this)
    }
    on = (event: string, listener: Listener) => this.events.on(event, listener)
    once = (event: string, listener: Listener) => this.events.once(event, listener)
    loadURL = async (url: string) => {
      this.url = url
    }
    /// What Chromium does once the page is painted and loaded.
    load(): void {
      this.webContents.loading = false
      this.events.emit('ready-to-show')
      this.webContents.emit('did-finish-load')
    }
    show = vi.fn()
    focus = vi.fn()
    restore = vi.fn()
    isMinimized = () => false
    isFocused = () => true
    isDestroyed = () => this.destroyed
    destroy = () => (this.destroyed = true)
    getNormalBounds = () => ({ x: 0, y: 0, width: 1280, height: 860 })
  }
  const session = () => ({
    ...emitter(),
    protocol: { handle: vi.fn() },
    webRequest: { onHeadersReceived: vi.fn(), onBeforeRequest: vi.fn() },
    setPermissionRequestHandler: vi.fn(),
    setPermissionCheckHandler: vi.fn(),
  })
  const defaultSession = session()
  const printing = session()
  return {
    ready,
    windows,
    app: {
      ...emitter(),
      isPackaged: true,
      enableSandbox: vi.fn(),
      commandLine: { appendSwitch: vi.fn() },
      requestSingleInstanceLock: () => true,
      whenReady: () => whenReady,
      setPath: vi.fn(),
      getPath: (name: string) => `/home/ada/${name}`,
      quit: vi.fn(),
    },
    protocol: { registerSchemesAsPrivileged: vi.fn() },
    session: { defaultSession, fromPartition: () => printing },
    BrowserWindow,
    dialog: {
      showErrorBox: vi.fn(),
      showMessageBox: vi.fn(async () => ({ response: 0 })),
      showMessageBoxSync: vi.fn(() => 0),
      showOpenDialog: vi.fn(async () => ({ canceled: false, filePaths: ['/tmp/chosen.md'] })),
      showSaveDialog: vi.fn(async () => ({ canceled: true, filePath: '' })),
    },
    Notification: class {
      show = vi.fn()
    },
    safeStorage: { isEncryptionAvailable: () => false, getSelectedStorageBackend: () => 'basic_text' },
    screen: { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] },
    ipcMain: { handle: vi.fn(), on: vi.fn() },
    shell: { openExternal: vi.fn(async () => undefined) },
  }
})
vi.mock('electron', () => electron)
// The window's place is remembered by electron-store, which needs Electron's own app paths.
vi.mock('electron-store', () => ({
  default: class {
    get = () => undefined
    set = vi.fn()
  },
}))

let dataDir: string
let files: string
beforeAll(async () => {
  dataDir = tempDir()
  files = tempDir()
  vi.stubEnv('FACTDESK_DATA_DIR', dataDir)
  await import('../../../src/main/index')
})
afterAll(() => {
  vi.unstubAllEnvs()
})

const mainWindow = () => electron.windows[0]
const handlerOf = (channel: string) =>
  electron.ipcMain.handle.mock.calls.find(([name]) => name === channel)?.[1] as Listener

describe('the desktop app starting', () => {
  it('makes app:// privileged and guards every webContents before it is ready', () => {
    expect(electron.protocol.registerSchemesAsPrivileged).toHaveBeenCalledWith([
      { scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } },
    ])
    expect(electron.app.enableSandbox).toHaveBeenCalled()
    expect(electron.app.commandLine.appendSwitch).toHaveBeenCalledWith('js-flags', JS_FLAGS)
    expect(electron.app.setPath).toHaveBeenCalledWith('userData', dataDir)
    expect(electron.windows).toEqual([])
  })

  it('opens the window on app://, which serves the page with its policy', async () => {
    // A file handed over by macOS before the app is ready waits for the window.
    const early = join(files, 'Early.md')
    writeFileSync(early, 'Opened before the app was ready.')
    const openFile = { preventDefault: vi.fn() }
    electron.app.emit('open-file', openFile, early)
    expect(openFile.preventDefault).toHaveBeenCalled()

    electron.ready()
    await vi.waitFor(() => expect(mainWindow()).toBeDefined())
    const window = mainWindow()
    expect(window.url).toBe('app://factdesk/index.html')
    expect(window.options).toMatchObject({ webPreferences: { sandbox: true, contextIsolation: true } })

    const [scheme, serve] = electron.session.defaultSession.protocol.handle.mock.calls[0] as [
      string,
      Listener,
    ]
    expect(scheme).toBe('app')
    const answer = (await serve({ url: 'app://factdesk/index.html' })) as Response
    expect(answer.status).toBe(200)
    expect(answer.headers.get('Content-Security-Policy')).toBe(CONTENT_SECURITY_POLICY)
    expect(((await serve({ url: 'app://factdesk/..%2f..%2fpackage.json' })) as Response).status).toBe(404)

    // The page answers through IPC, to the app page only.
    const me = handlerOf(channelOf('me'))
    expect(await me({ senderFrame: { url: window.url } })).toMatchObject({ ok: true })
    expect(await me({ senderFrame: { url: 'https://evil.example/' } })).toMatchObject({ ok: false })

    // Once the page has loaded, the early file's draft is named to it.
    window.load()
    expect(window.show).toHaveBeenCalled()
    await vi.waitFor(() => expect(window.webContents.sent).toHaveLength(1))
    const [channel, opened] = window.webContents.sent[0] as [string, { ok: boolean; data: string }]
    expect(channel).toBe(OPENED_FILE_CHANNEL)
    const draft = await handlerOf(channelOf('openDraft'))({ senderFrame: { url: window.url } }, opened.data)
    expect(draft).toMatchObject({
      ok: true,
      data: { text: 'Opened before the app was ready.', filePath: early },
    })
  })

  it('opens the file a second instance was asked to open in this window', async () => {
    const window = mainWindow()
    writeFileSync(join(files, 'Second.md'), 'Opened with, while Factdesk ran.')
    electron.app.emit('second-instance', {}, ['/opt/Factdesk/factdesk', '--no-sandbox', 'Second.md'], files)
    expect(window.focus).toHaveBeenCalled()
    await vi.waitFor(() => expect(window.webContents.sent).toHaveLength(2))
    const opened = window.webContents.sent[1]?.[1] as { data: string }
    const draft = await handlerOf(channelOf('openDraft'))({ senderFrame: { url: window.url } }, opened.data)
    expect(draft).toMatchObject({ data: { filePath: join(files, 'Second.md') } })
    // Nothing to open: the window only comes forward.
    electron.app.emit('second-instance', {}, ['/opt/Factdesk/factdesk'], files)
    expect(electron.windows).toHaveLength(1)
  })

  it('asks before closing over unsaved file changes, and where to save a download', () => {
    const window = mainWindow()
    const unload = { preventDefault: vi.fn() }
    window.webContents.emit('will-prevent-unload', unload)
    expect(electron.dialog.showMessageBoxSync).toHaveBeenCalledWith(
      window,
      expect.objectContaining({ message: 'Close without saving the file?' }),
    )
    expect(unload.preventDefault).toHaveBeenCalled()

    const item = { getFilename: () => 'moon-report.pdf', setSaveDialogOptions: vi.fn() }
    electron.session.defaultSession.emit('will-download', {}, item)
    expect(item.setSaveDialogOptions).toHaveBeenCalledWith({
      title: 'Save the report',
      defaultPath: join('/home/ada/documents', 'moon-report.pdf'),
    })
  })

  it('asks the native dialogs over the window for the file operations', async () => {
    const window = mainWindow()
    const chosen = join(files, 'Chosen.md')
    writeFileSync(chosen, 'Chosen in the Open dialog.')
    electron.dialog.showOpenDialog.mockResolvedValueOnce({ canceled: false, filePaths: [chosen] })
    const sender = { senderFrame: { url: window.url } }
    const opened = await handlerOf(channelOf('openFile'))(sender)
    expect(opened).toMatchObject({ ok: true, data: { text: 'Chosen in the Open dialog.' } })
    expect(electron.dialog.showOpenDialog).toHaveBeenLastCalledWith(
      window,
      expect.objectContaining({ title: 'Open' }),
    )
    // Save as… cancelled: nothing saved.
    const id = (opened as { data: { id: string } }).data.id
    expect(await handlerOf(channelOf('saveFileAs'))(sender, id, 'Changed.')).toEqual({ ok: true, data: null })
    expect(electron.dialog.showSaveDialog).toHaveBeenLastCalledWith(
      window,
      expect.objectContaining({ defaultPath: chosen }),
    )
  })

  it('prints a PDF export from a file the print window alone may load', async () => {
    const { electronPdf } = await import('../../../src/main/desktop/exports')
    const folder = join(dataDir, 'printing')
    const pdf = await electronPdf(folder)('<p>The Moon</p>')
    expect(new TextDecoder().decode(pdf)).toBe('%PDF-1.7')
    const printer = electron.windows.at(-1)
    expect(printer.url).toMatch(/^file:/)
    expect(printer.destroyed).toBe(true)
    const [filter] = electron.session.fromPartition().webRequest.onBeforeRequest.mock.calls[0] as [Listener]
    const answer = vi.fn()
    filter({ url: 'https://tracker.example/pixel.png' }, answer)
    expect(answer).toHaveBeenLastCalledWith({ cancel: true })
    filter({ url: printer.url }, answer)
    expect(answer).toHaveBeenLastCalledWith({ cancel: false })
  })

  it('closes the engine before quitting', async () => {
    const quitting = { preventDefault: vi.fn() }
    electron.app.emit('will-quit', quitting)
    expect(quitting.preventDefault).toHaveBeenCalled()
    await vi.waitFor(() => expect(electron.app.quit).toHaveBeenCalled())
    // Quitting again goes through: the engine is closed.
    const again = { preventDefault: vi.fn() }
    electron.app.emit('will-quit', again)
    expect(again.preventDefault).not.toHaveBeenCalled()
  })
})
