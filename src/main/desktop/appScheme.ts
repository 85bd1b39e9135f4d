import { readFile } from 'node:fs/promises'
import { extname, isAbsolute, join, relative, sep } from 'node:path'

/// The built page's own scheme: a privileged `app://factdesk/` serves out/renderer (Electron's security
/// checklist), so the page has a real origin for its CSP's 'self', its module scripts, its worker and the fetch
/// of its WebAssembly, where file:// would have the opaque origin "null".
export const APP_SCHEME = 'app'
const APP_HOST = 'factdesk'
export const APP_PAGE = `${APP_SCHEME}://${APP_HOST}/index.html`

/// The scheme's privileges: a standard scheme (origins, relative URLs), secure like https, and fetch for the
/// WebAssembly. Nothing else: no CORS bypass, no service workers.
export const APP_SCHEME_PRIVILEGES = { standard: true, secure: true, supportFetchAPI: true }

/// What each kind of file the build writes (and nothing else) is served as; module scripts and the worker must be JavaScript and
/// the WebAssembly `application/wasm`, or Chromium refuses them.
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
}

/// An app:// request answered: the file of out/renderer and its type, or the status refusing it.
export type AppFile = { path: string; type: string } | { status: 404 }

/// The file of `folder` (out/renderer) that `url` names, or 404: another host, a path out of the folder (`..`,
/// encoded or not, a backslash) and a kind of file the build does not write are all refused alike.
export function appFile(url: string, folder: string): AppFile {
  const target = URL.parse(url)
  if (!target || target.protocol !== `${APP_SCHEME}:` || target.host !== APP_HOST) return { status: 404 }
  let path: string
  try {
    path = decodeURIComponent(target.pathname)
  } catch {
    return { status: 404 }
  }
  if (path.includes('\\') || path.includes('\0')) return { status: 404 }
  const file = join(folder, path)
  const inside = relative(folder, file)
  // Another drive, on Windows, is an absolute path.
  if (inside.split(sep)[0] === '..' || isAbsolute(inside)) return { status: 404 }
  const type = TYPES[extname(file).toLowerCase()]
  return type ? { path: file, type } : { status: 404 }
}

/// The answer to an app:// request: the file with its type and the page's Content-Security-Policy (a custom
/// scheme's responses pass no webRequest header hook), or an empty 404.
export async function appResponse(url: string, folder: string, policy: string): Promise<Response> {
  const file = appFile(url, folder)
  const body = 'path' in file ? await readFile(file.path).catch(() => null) : null
  if (!('path' in file) || !body) return new Response(null, { status: 404 })
  return new Response(body, { headers: { 'Content-Type': file.type, 'Content-Security-Policy': policy } })
}
