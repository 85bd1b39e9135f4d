/// Where a worker thread's code is, seen from the module that starts it (`moduleUrl`): `source` beside it when
/// run from source (vitest, tsx), `bundled` at the top of out/main when bundled, where electron-vite writes each
/// entry (electron.vite.config.ts), while shared code may land in out/main/chunks/.
export function workerEntry(
  moduleUrl: string,
  source: string,
  bundled: string,
): { url: URL; fromSource: boolean } {
  if (moduleUrl.endsWith('.ts')) return { url: new URL(source, moduleUrl), fromSource: true }
  const inChunks = new URL('.', moduleUrl).pathname.endsWith('/chunks/')
  return { url: new URL(inChunks ? `../${bundled}` : `./${bundled}`, moduleUrl), fromSource: false }
}
