import { isIP } from 'node:net'
import { ApiError } from '../../shared/errors'

/// Refuses an empty text or one longer than the configured limit (UTF-16 units, as offsets count).
export function requireCheckableText(text: string, maxTextChars: number): void {
  if (text.trim() === '') throw new ApiError('unprocessable', 'The text is empty: there is nothing to check.')
  if (text.length > maxTextChars) {
    throw new ApiError(
      'unprocessable',
      `The text is ${text.length.toLocaleString('en')} characters long; the limit is ${maxTextChars.toLocaleString('en')}.`,
    )
  }
}

/// Refuses a `sourceUrl` that is not an http(s) URL.
export function requireSourceUrl(value: string | null | undefined): void {
  if (value === null || value === undefined) return
  if (!URL.canParse(value) || !['http:', 'https:'].includes(new URL(value).protocol)) {
    throw new ApiError('unprocessable', 'sourceUrl must be an http or https URL.', [
      { field: 'sourceUrl', message: 'not an http(s) URL' },
    ])
  }
}

const isLoopback = (host: string): boolean =>
  host === 'localhost' || host === '[::1]' || (isIP(host) === 4 && host.startsWith('127.'))

/// True for literal addresses that are not on the public internet: private, loopback, link-local, CGNAT,
/// multicast, unspecified and the like (IPv4 and IPv6, IPv4-mapped included).
export function isNonPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').toLowerCase()
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(bare)
  if (mapped?.[1]) return isNonPublicAddress(mapped[1])
  if (isIP(bare) === 4) {
    const [a = 0, b = 0] = bare.split('.').map(Number)
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 192 && b === 0) ||
      (a === 198 && (b === 18 || b === 19)) ||
      a >= 224
    )
  }
  if (isIP(bare) === 6) {
    return (
      bare === '::' ||
      bare === '::1' ||
      /^f[cd]/.test(bare) ||
      /^fe[89ab]/.test(bare) ||
      bare.startsWith('ff')
    )
  }
  return false
}

/// Refuses a `callbackUrl` that is not a public https endpoint (loopback http(s) only when `allowLocal`).
/// The host's DNS answers are checked again before every delivery.
export function requireCallbackUrl(value: string | null | undefined, allowLocal: boolean): void {
  if (value === null || value === undefined) return
  const refuse = (why: string): never => {
    throw new ApiError('unprocessable', `callbackUrl ${why}.`, [{ field: 'callbackUrl', message: why }])
  }
  if (!URL.canParse(value)) refuse('is not a URL')
  const url = new URL(value)
  if (url.username || url.password) refuse('must not carry credentials')
  const local = isLoopback(url.hostname)
  if (local && allowLocal) {
    if (!['http:', 'https:'].includes(url.protocol)) refuse('must be an http(s) URL')
    return
  }
  if (url.protocol !== 'https:') refuse('must be an https URL')
  if (local || isNonPublicAddress(url.hostname) || !url.hostname.includes('.'))
    refuse('must be a public address')
}

/// An `Idempotency-Key` is 1 to 255 visible ASCII characters.
export function requireIdempotencyKey(key: string): void {
  if (!/^[\x21-\x7e]{1,255}$/.test(key)) {
    throw new ApiError('bad_request', 'Idempotency-Key must be 1 to 255 visible ASCII characters.')
  }
}
