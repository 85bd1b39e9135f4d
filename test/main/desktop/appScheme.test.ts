import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CONTENT_SECURITY_POLICY } from '../../../src/shared/csp'
import { appFile, appResponse } from '../../../src/main/desktop/appScheme'
import { tempDir } from '../../helpers/server'

// The built page's folder as electron-vite writes it, beside a file that must never be served.
function renderer(): string {
  const root = tempDir()
  const folder = join(root, 'renderer')
  mkdirSync(join(folder, 'assets'), { recursive: true })
  writeFileSync(join(folder, 'index.html'), '<!doctype html><title>Factdesk</title>')
  writeFileSync(join(folder, 'assets', 'index-abc.js'), 'export {}')
  writeFileSync(join(folder, 'assets', 'lint.worker-abc.js'), 'self.onmessage = () => {}')
  writeFileSync(join(folder, 'assets', 'harper_wasm_bg.wasm'), Buffer.from([0, 97, 115, 109, 1, 0, 0, 0]))
  writeFileSync(join(folder, 'assets', 'index-abc.css'), 'body {}')
  writeFileSync(join(root, 'secret.html'), '<p>not for the page</p>')
  return folder
}

describe('app:// requests', () => {
  it('serve the page, its modules, its worker and its WebAssembly with the types Chromium requires', () => {
    const folder = renderer()
    expect(appFile('app://factdesk/index.html', folder)).toEqual({
      path: join(folder, 'index.html'),
      type: 'text/html; charset=utf-8',
    })
    expect(appFile('app://factdesk/assets/index-abc.js', folder)).toMatchObject({
      type: 'text/javascript; charset=utf-8',
    })
    expect(appFile('app://factdesk/assets/lint.worker-abc.js?worker_file&type=module', folder)).toEqual({
      path: join(folder, 'assets', 'lint.worker-abc.js'),
      type: 'text/javascript; charset=utf-8',
    })
    expect(appFile('app://factdesk/assets/harper_wasm_bg.wasm', folder)).toMatchObject({
      type: 'application/wasm',
    })
    expect(appFile('app://factdesk/assets/index-abc.css', folder)).toMatchObject({
      type: 'text/css; charset=utf-8',
    })
  })

  it('refuse every way out of the folder, other hosts and other schemes', () => {
    const folder = renderer()
    // Dot segments in the URL itself (also as %2e) are resolved by the URL parser, within the folder.
    expect(appFile('app://factdesk/../secret.html', folder)).toMatchObject({
      path: join(folder, 'secret.html'),
    })
    expect(appFile('app://factdesk/%2e%2e/secret.html', folder)).toMatchObject({
      path: join(folder, 'secret.html'),
    })
    // Encoded separators would step out only once decoded: refused.
    for (const url of [
      'app://factdesk/assets/..%2f..%2fsecret.html',
      'app://factdesk/assets/%2E%2E%2F%2E%2E%2Fsecret.html',
      'app://factdesk/..%5csecret.html',
      'app://factdesk/index.html%00.js',
      'app://factdesk/%E0%A4%A',
      'app://factdesk/',
      'app://evil.example/index.html',
      'file:///etc/passwd',
      'https://factdesk/index.html',
      'not a url',
    ]) {
      expect(appFile(url, folder), url).toEqual({ status: 404 })
    }
  })

  it('answer 404 for a file the build did not write or of a kind it never writes', async () => {
    const folder = renderer()
    writeFileSync(join(folder, 'notes.sqlite'), 'not for the page')
    writeFileSync(join(folder, 'data.json'), '{}')
    expect(appFile('app://factdesk/notes.sqlite', folder)).toEqual({ status: 404 })
    expect(appFile('app://factdesk/data.json', folder)).toEqual({ status: 404 })
    const missing = await appResponse('app://factdesk/assets/gone.js', folder, CONTENT_SECURITY_POLICY)
    expect(missing.status).toBe(404)
    expect(await missing.text()).toBe('')
    const outside = await appResponse('app://factdesk/%2e%2e/secret.html', folder, CONTENT_SECURITY_POLICY)
    expect(outside.status).toBe(404)
  })

  it("answer with the file's bytes, its type and the page's policy", async () => {
    const folder = renderer()
    const wasm = await appResponse(
      'app://factdesk/assets/harper_wasm_bg.wasm',
      folder,
      CONTENT_SECURITY_POLICY,
    )
    expect(wasm.status).toBe(200)
    expect(wasm.headers.get('Content-Type')).toBe('application/wasm')
    expect(wasm.headers.get('Content-Security-Policy')).toBe(CONTENT_SECURITY_POLICY)
    expect([...new Uint8Array(await wasm.arrayBuffer())]).toEqual([0, 97, 115, 109, 1, 0, 0, 0])
  })
})
