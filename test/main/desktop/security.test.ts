import { describe, expect, it } from 'vitest'
import { CONTENT_SECURITY_POLICY } from '../../../src/shared/csp'
import { appPage, isAppUrl, isWebLink } from '../../../src/main/desktop/appPage'
import { pagePolicy } from '../../../src/main/desktop/pagePolicy'
import { webPreferences } from '../../../src/main/desktop/webPreferences'

const DEV_SERVER = 'http://localhost:5173'
const built = appPage(undefined)
const dev = appPage(DEV_SERVER)

describe('webPreferences', () => {
  it('isolates and sandboxes the page, without Node, webviews or a relaxed web security', () => {
    expect(webPreferences('/app/out/preload/index.cjs')).toEqual({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
      spellcheck: false,
      preload: '/app/out/preload/index.cjs',
    })
  })
})

describe('isAppUrl', () => {
  it('accepts the built page on app://, with any route or anchor', () => {
    expect(built.href).toBe('app://factdesk/index.html')
    expect(isAppUrl('app://factdesk/index.html', built)).toBe(true)
    expect(isAppUrl('app://factdesk/index.html#/claims/clm_1', built)).toBe(true)
    expect(isAppUrl('app://factdesk/index.html?panel=research', built)).toBe(true)
  })

  it('refuses other files of the app, other hosts and files on disk', () => {
    expect(isAppUrl('app://factdesk/assets/other.html', built)).toBe(false)
    expect(isAppUrl('app://evil.example/index.html', built)).toBe(false)
    expect(isAppUrl('file:///opt/Factdesk/out/renderer/index.html', built)).toBe(false)
    expect(isAppUrl('file:///etc/passwd', built)).toBe(false)
  })

  it('refuses the web and anything unparsable', () => {
    for (const url of [
      'https://example.com/',
      'http://localhost:5173/',
      'about:blank',
      'javascript:alert(1)',
      '',
    ]) {
      expect(isAppUrl(url, built), url).toBe(false)
    }
  })

  it('accepts the dev server origin only when it is the page', () => {
    expect(isAppUrl('http://localhost:5173/', dev)).toBe(true)
    expect(isAppUrl('http://localhost:5173/src/main.tsx', dev)).toBe(true)
    expect(isAppUrl('http://localhost:5174/', dev)).toBe(false)
    expect(isAppUrl('https://localhost:5173/', dev)).toBe(false)
    expect(isAppUrl('http://127.0.0.1:5173/', dev)).toBe(false)
    expect(isAppUrl(built.href, dev)).toBe(false)
  })
})

describe('isWebLink', () => {
  it('hands only http(s) links to the browser', () => {
    expect(isWebLink('https://en.wikipedia.org/wiki/Moon')).toBe(true)
    expect(isWebLink('http://example.com')).toBe(true)
    for (const url of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'smb://host/share',
      'ms-msdt:x',
      'not a url',
    ]) {
      expect(isWebLink(url), url).toBe(false)
    }
  })
})

describe('pagePolicy', () => {
  const directives = (policy: string): Map<string, string> =>
    new Map(policy.split('; ').map((d) => [d.split(' ')[0] ?? '', d.slice(d.indexOf(' ') + 1)]))

  it('is the shared policy in the built app', () => {
    expect(pagePolicy(undefined)).toBe(CONTENT_SECURITY_POLICY)
  })

  it('in development admits only an inline script and a socket to the dev server', () => {
    const shared = directives(CONTENT_SECURITY_POLICY)
    const relaxed = directives(pagePolicy(DEV_SERVER))
    expect(relaxed.get('script-src')).toBe(`${shared.get('script-src')} 'unsafe-inline'`)
    expect(relaxed.get('connect-src')).toBe(`${shared.get('connect-src')} ws://localhost:5173`)
    for (const [name, value] of shared) {
      if (name !== 'script-src' && name !== 'connect-src') expect(relaxed.get(name), name).toBe(value)
    }
    expect(relaxed.size).toBe(shared.size)
    expect(relaxed.get('script-src')).not.toContain("'unsafe-eval'")
  })
})
