import { describe, expect, it } from 'vitest'
import { requireCallbackUrl, requireSourceUrl } from '../../../../src/main/engine/checks/validation'

// Syntax only: the host's DNS answers are checked by the webhook target rules (test/main/engine/webhooks/targets.test.ts).
describe('callbackUrl at submission', () => {
  it('accepts public https URLs, names and IP literals alike', () => {
    for (const url of [
      'https://hooks.example.com/factdesk',
      'https://93.184.215.14/x',
      'https://[2606:4700:4700::1111]/hook',
    ]) {
      expect(() => requireCallbackUrl(url, false), url).not.toThrow()
    }
  })

  it('refuses http, credentials, private and loopback literals, and single-label names', () => {
    for (const url of [
      'http://hooks.example.com/x',
      'https://user:pw@hooks.example.com/x',
      'https://10.1.2.3/x',
      'https://[::ffff:a00:5]/x',
      'https://[fe80::1]/x',
      'https://127.0.0.1/x',
      'https://localhost/x',
      'https://intranet/x',
      'not a url',
    ]) {
      expect(() => requireCallbackUrl(url, false), url).toThrow(/callbackUrl/)
    }
  })

  it('admits loopback over http(s) only when local targets are allowed, never private ranges', () => {
    expect(() => requireCallbackUrl('http://127.0.0.1:9000/hook', true)).not.toThrow()
    expect(() => requireCallbackUrl('http://[::1]:9000/hook', true)).not.toThrow()
    expect(() => requireCallbackUrl('http://localhost:9000/hook', true)).not.toThrow()
    expect(() => requireCallbackUrl('https://192.168.1.2/hook', true)).toThrow(/public/)
    expect(() => requireCallbackUrl('ftp://127.0.0.1/hook', true)).toThrow(/http/)
  })
})

describe('sourceUrl', () => {
  it('must be http(s); null clears it', () => {
    expect(() => requireSourceUrl('https://example.com/story')).not.toThrow()
    expect(() => requireSourceUrl(null)).not.toThrow()
    expect(() => requireSourceUrl('mailto:editor@example.com')).toThrow(/sourceUrl/)
  })
})
