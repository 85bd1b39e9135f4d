import { randomBytes } from 'node:crypto'

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'

function base32(bytes: Uint8Array): string {
  let out = ''
  let bits = 0
  let value = 0
  for (const byte of bytes) {
    value = (value << 8) | byte
    bits += 8
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31]
      bits -= 5
    }
  }
  return bits > 0 ? out + ALPHABET[(value << (5 - bits)) & 31] : out
}

/// The type prefixes of api-decisions.md: clients never parse ids, but people reading logs do.
export type IdPrefix = 'org' | 'tok' | 'doc' | 'chk' | 'clm' | 'rsc' | 'evt' | 'whs' | 'pnd' | 'drf'

/// A new id: the prefix, then 48 bits of milliseconds (so ids sort by creation) and 80 random bits.
export function newId(prefix: IdPrefix, now: Date): string {
  const time = Buffer.alloc(6)
  time.writeUIntBE(now.getTime(), 0, 6)
  return `${prefix}_${base32(Buffer.concat([time, randomBytes(10)]))}`
}

/// A secret of `bytes` random bytes with a readable prefix, e.g. `fdk_…` or `whsec_…`.
export function newSecret(prefix: string, bytes = 32): string {
  return `${prefix}${randomBytes(bytes).toString('base64url')}`
}
