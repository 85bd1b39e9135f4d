import { isIP } from 'node:net'
import { ApiError } from '../../../shared/errors'
import { unstorableCharacter } from '../../../shared/schemas'
import { isLoopbackAddress, isRefusedAddress } from '../base/addresses'

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

/// Refuses text members holding U+0000 or an unpaired surrogate (the store would cut or change them), naming
/// each and the offset: the request schemas do the same at the API's edge; this covers every other caller (the
/// CLI, a queued check).
export function requireStorableText(members: Record<string, string | null | undefined>): void {
  const details = Object.entries(members).flatMap(([field, value]) => {
    const problem = typeof value === 'string' ? unstorableCharacter(value) : null
    return problem ? [{ field, message: problem }] : []
  })
  if (details.length > 0) {
    const fields = details.map((detail) => detail.field).join(', ')
    throw new ApiError('bad_request', `The request is not valid (${fields}).`, details)
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
  const host = url.hostname.replace(/^\[|\]$/g, '')
  const literal = isIP(host) !== 0
  const local = host === 'localhost' || (literal && isLoopbackAddress(host))
  if (local && allowLocal) {
    if (!['http:', 'https:'].includes(url.protocol)) refuse('must be an http(s) URL')
    return
  }
  if (url.protocol !== 'https:') refuse('must be an https URL')
  // A literal address must be public; a name must at least look like one on the internet (DNS is asked next).
  if (local || (literal ? isRefusedAddress(host) : !host.includes('.'))) refuse('must be a public address')
}

/// An `Idempotency-Key` is 1 to 255 visible ASCII characters.
export function requireIdempotencyKey(key: string): void {
  if (!/^[\x21-\x7e]{1,255}$/.test(key)) {
    throw new ApiError('bad_request', 'Idempotency-Key must be 1 to 255 visible ASCII characters.')
  }
}
