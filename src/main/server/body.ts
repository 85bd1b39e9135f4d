import { isUtf8 } from 'node:buffer'
import { ApiError } from '../../shared/errors'

/// The deepest a request body nests objects and arrays: the API's own bodies nest four deep at most.
export const MAX_JSON_DEPTH = 32
/// The most members a request body's objects hold in all: the API's own bodies hold a few dozen.
export const MAX_JSON_MEMBERS = 1000

/// A request body as JSON: valid UTF-8 (400 naming the byte offset of the first byte that is not, rather than
/// read as U+FFFD), nested at most MAX_JSON_DEPTH deep and with at most MAX_JSON_MEMBERS members (a body built to
/// hold the event loop, or to make an error naming each member, is refused before it is parsed), then parsed.
/// Answers the text, which parses.
export function jsonText(bytes: Uint8Array): string {
  if (!isUtf8(bytes)) {
    throw new ApiError(
      'bad_request',
      `The request body is not valid UTF-8: the character at byte ${notUtf8At(bytes)} is not.`,
    )
  }
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')
  requireShape(text)
  try {
    JSON.parse(text)
  } catch {
    throw new ApiError('bad_request', 'The request body is not valid JSON.')
  }
  return text
}

/// Refuses JSON nested too deep or with too many members, reading only its structure: strings are skipped
/// whole (found by `indexOf`, which a text of escapes cannot slow down), and each member's name is followed by
/// the one colon outside a string.
function requireShape(text: string): void {
  const structure = /["[\]{}:]/g
  let depth = 0
  let members = 0
  for (let found = structure.exec(text); found; found = structure.exec(text)) {
    switch (found[0]) {
      case '"':
        structure.lastIndex = stringEnd(text, structure.lastIndex)
        break
      case '{':
      case '[':
        if (++depth > MAX_JSON_DEPTH) {
          throw new ApiError('bad_request', `The request body nests deeper than ${MAX_JSON_DEPTH} levels.`)
        }
        break
      case '}':
      case ']':
        depth--
        break
      default:
        if (++members > MAX_JSON_MEMBERS) {
          throw new ApiError(
            'bad_request',
            `The request body holds more than ${MAX_JSON_MEMBERS.toLocaleString('en')} members.`,
          )
        }
    }
  }
}

/// Where a JSON string whose content starts at `from` ends: after the first quote not escaped by a backslash.
function stringEnd(text: string, from: number): number {
  for (let quote = text.indexOf('"', from); quote !== -1; quote = text.indexOf('"', quote + 1)) {
    let backslashes = 0
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes++
    if (backslashes % 2 === 0) return quote + 1
  }
  return text.length
}

/// The offset of the first byte of `bytes` that does not begin a well-formed UTF-8 character (RFC 3629: no
/// overlong forms, no surrogates, nothing past U+10FFFF), or its length when every one is.
export function notUtf8At(bytes: Uint8Array): number {
  let at = 0
  while (at < bytes.length) {
    const lead = bytes[at] as number
    const [length, low, high] =
      lead < 0x80
        ? [1, 0x80, 0xbf]
        : lead >= 0xc2 && lead <= 0xdf
          ? [2, 0x80, 0xbf]
          : lead === 0xe0
            ? [3, 0xa0, 0xbf]
            : lead === 0xed
              ? [3, 0x80, 0x9f]
              : lead >= 0xe1 && lead <= 0xef
                ? [3, 0x80, 0xbf]
                : lead === 0xf0
                  ? [4, 0x90, 0xbf]
                  : lead >= 0xf1 && lead <= 0xf3
                    ? [4, 0x80, 0xbf]
                    : lead === 0xf4
                      ? [4, 0x80, 0x8f]
                      : [0, 0, 0]
    if (length === 0) return at
    for (let next = 1; next < length; next++) {
      const byte = bytes[at + next]
      // The second byte's range depends on the lead; the others are any continuation byte.
      const [from, to] = next === 1 ? [low, high] : [0x80, 0xbf]
      if (byte === undefined || byte < from || byte > to) return at
    }
    at += length
  }
  return bytes.length
}
