import { join, resolve } from 'node:path'
import { app, BrowserWindow, dialog, Notification, session } from 'electron'
import { openEngine, type Engine } from './engine/engine'
import { defaultDataDir, makeDataFolder } from './engine/base/paths'
import { appPage } from './desktop/appPage'
import { WindowBounds } from './desktop/bounds'
import { createDispatch } from './desktop/dispatch'
import { askWhereToSave, electronPdf } from './desktop/exports'
import { nativeFileDialogs } from './desktop/fileDialogs'
import { createFileDispatch, openAsked } from './desktop/files'
import { guardEveryWebContents } from './desktop/guards'
import { registerFileIpc, registerIpc } from './desktop/ipc'
import { configFile, fileToOpen, FilesToOpen, JS_FLAGS } from './desktop/launch'
import { pagePolicy } from './desktop/pagePolicy'
import { announceInBackground } from './desktop/notify'
import { registerAppScheme, serveApp } from './desktop/protocol'
import { startupError } from './desktop/prompts'
import { forwardReports, sendOpenedFile } from './desktop/push'
import { keychainSecretBox } from './desktop/secretBox'
import { secureSession } from './desktop/session'
import { createMainWindow } from './desktop/window'
import { ServiceSwitch } from './remote/switch'
import { localServerSwitch } from './server/localServer'

// The desktop app: one window on the editor page, and the engine running in this process. What the shell decides
// is in src/main/desktop's plain modules; here are the Electron calls.

// A packaged app never takes its page from the environment: anyone who can set a variable could otherwise point
// the window, and its preload, at a page of their own.
const devServerUrl = app.isPackaged ? undefined : process.env.ELECTRON_RENDERER_URL
const page = appPage(devServerUrl)
const policy = pagePolicy(devServerUrl)
// Paths are relative to this file's bundle in out/main, beside out/preload and out/renderer.
const renderer = join(import.meta.dirname, '../renderer')
const preload = join(import.meta.dirname, '../preload/index.cjs')

// The same folder the CLI defaults to (Electron would name it after the lower-case package name), so
// `factdesk serve` and the app share one store; FACTDESK_DATA_DIR moves both. Electron takes only an absolute
// path and throws on a folder that does not exist yet (a first start), so it is made first; a folder that cannot
// be made is said in words once the app is ready to show it.
const dataDir = resolve(defaultDataDir())
const dataFolderProblem = setDataFolder(dataDir)

let engine: Engine | undefined
/// The organization of the desktop's own principal in `engine`.
let localOrganization: string | undefined
let services: ServiceSwitch | undefined
let bounds: WindowBounds | undefined
let mainWindow: BrowserWindow | undefined
const dialogs = nativeFileDialogs(() => mainWindow)
// "Open with", a file dropped on the app's icon: from the command line, or from macOS before the app is ready.
const filesToOpen = new FilesToOpen()
filesToOpen.add(fileToOpen(process.argv, process.cwd()))

// The memory settings `factdesk serve` has, for every process started from here on (see JS_FLAGS).
app.commandLine.appendSwitch('js-flags', JS_FLAGS)
// Every renderer sandboxed, whatever a window's preferences say; app:// privileged, which Electron takes only now.
app.enableSandbox()
registerAppScheme()

// The engine holds the data folder; a second app would be refused it, so it hands over to the first instead,
// with the file it was asked to open.
if (!app.requestSingleInstanceLock()) {
  app.quit()
} else {
  app.on('second-instance', (_event, argv, workingDirectory) => {
    showMainWindow()
    filesToOpen.add(fileToOpen(argv, workingDirectory))
  })
  app.on('open-file', (event, path) => {
    event.preventDefault()
    filesToOpen.add(path)
  })
  app.on('activate', showMainWindow)
  app.on('window-all-closed', () => {
    // On macOS an app stays open without windows until the user quits it.
    if (process.platform !== 'darwin') app.quit()
  })
  app.on('will-quit', (event) => {
    if (!engine) return
    // Let in-flight units go back to the queue and the store close before the process ends.
    event.preventDefault()
    const closing = engine
    engine = undefined
    services?.close()
    void closing.close().finally(() => app.quit())
  })
  guardEveryWebContents(page)
  app.whenReady().then(start).catch(fail)
}

async function start(): Promise<void> {
  if (dataFolderProblem) throw dataFolderProblem
  // Throws a readable error when the data folder is locked by a running `factdesk serve` (or is unusable).
  const configPath = configFile(process.argv.slice(1))
  const opened = await openEngine({
    dataDir,
    configPath,
    runJobs: true,
    secretBox: keychainSecretBox(dataDir),
  })
  localOrganization = (await opened.localPrincipal()).organizationId
  engine = opened
  // Said, not fatal: the app runs without what the warning is about.
  for (const message of opened.warnings)
    void dialog.showMessageBox({ type: 'warning', title: 'Factdesk', message })
  // The local REST server (off unless turned on under Settings > API keys), on 127.0.0.1 only.
  void opened.settings.switches.attachLocalServer(localServerSwitch(opened))
  serveApp(session.defaultSession, renderer, policy)
  secureSession(session.defaultSession, policy, page)
  askWhereToSave(session.defaultSession)
  // The editor talks to this engine, or to the remote service chosen under Settings > Service.
  opened.settings.switches.offerRemoteService()
  services = new ServiceSwitch(opened.settings.switches)
  // PDF exports print from a file of their own in the data folder, removed once printed.
  registerIpc(createDispatch(opened, page, services, electronPdf(join(dataDir, 'printing'))))
  // Files on disk: the drafts stay on this computer whichever service checks them.
  registerFileIpc(createFileDispatch(opened, page, dialogs))
  bounds = new WindowBounds()
  showMainWindow()
  filesToOpen.openWith((path) => {
    const window = showMainWindow()
    if (window)
      void openAsked(opened, dialogs, path).then((result) => sendOpenedFile(window.webContents, page, result))
  })
}

// Brings the editor's window forward, opening it if there is none (macOS keeps the app alive without one).
function showMainWindow(): BrowserWindow | undefined {
  if (!engine || !bounds || localOrganization === undefined) return undefined
  if (mainWindow && !mainWindow.isDestroyed()) {
    if (mainWindow.isMinimized()) mainWindow.restore()
    mainWindow.focus()
    return mainWindow
  }
  const window = createMainWindow(page, preload, bounds)
  mainWindow = window
  // Report changes of the desktop's organization reach the page as they happen.
  const organizationId = localOrganization
  forwardReports(engine.events, organizationId, window.webContents, page)
  // And so do the polled updates of a remote service.
  if (services) forwardReports(services.events(organizationId), organizationId, window.webContents, page)
  // While the window is in the background, a queued check that starts and a long check that ends are announced,
  // whether the embedded engine or a remote service runs it.
  const show = (title: string, body: string): void => new Notification({ title, body }).show()
  const sources = services ? [engine.events, services.events(organizationId)] : [engine.events]
  const stops = sources.map((events) => announceInBackground(events, organizationId, window, show))
  window.once('closed', () => stops.forEach((stop) => stop()))
  return window
}

// Makes the data folder and hands it to Electron as `userData`, or returns why it cannot be used.
function setDataFolder(folder: string): Error | undefined {
  try {
    makeDataFolder(folder)
    app.setPath('userData', folder)
    return undefined
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error))
  }
}

function fail(error: unknown): void {
  const { title, content } = startupError(error)
  dialog.showErrorBox(title, content)
  app.quit()
}
