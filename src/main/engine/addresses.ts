import { lookup } from 'node:dns/promises'
import { isIP, type LookupFunction } from 'node:net'

// Where the engine's outbound requests (webhooks, web fetches) may go: which IP addresses, how a host is
// resolved and checked, and the pinned lookup that connects only to what was checked.

/// True for IPv4 addresses off the public internet: this network, private, loopback, CGNAT, link-local,
/// IETF protocol assignments, benchmarking, multicast and reserved.
function isNonPublicIpv4(address: string): boolean {
  const [a = 0, b = 0] = address.split('.').map(Number)
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

/// The eight 16-bit words of an IPv6 address (zone id dropped), or null if it is not one.
function ipv6Words(address: string): number[] | null {
  const bare = address.replace(/%.*$/, '')
  if (isIP(bare) !== 6) return null
  let text = bare.toLowerCase()
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)
  if (dotted?.[1]) {
    const [a = 0, b = 0, c = 0, d = 0] = dotted[1].split('.').map(Number)
    text = `${text.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head = '', tail] = text.split('::')
  const parse = (part: string): number[] => (part === '' ? [] : part.split(':').map((w) => parseInt(w, 16)))
  const front = parse(head)
  const back = tail === undefined ? [] : parse(tail)
  const words = [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back]
  return words.length === 8 ? words : null
}

const v4 = (high: number, low: number): string => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`

/// The IPv4 address an IPv6 address carries, where it is one that reaches IPv4: IPv4-mapped (::ffff:0:0/96),
/// NAT64 (64:ff9b::/96, 64:ff9b:1::/48) and 6to4 (2002::/16).
function embeddedIpv4(words: readonly number[]): string | null {
  const [w0 = 0, w1 = 0, w2 = 0, w3 = 0, w4 = 0, w5 = 0, w6 = 0, w7 = 0] = words
  if (w0 === 0 && w1 === 0 && w2 === 0 && w3 === 0 && w4 === 0 && w5 === 0xffff) return v4(w6, w7)
  if (w0 === 0x64 && w1 === 0xff9b && (w2 === 0 || w2 === 1)) return v4(w6, w7)
  if (w0 === 0x2002) return v4(w1, w2)
  return null
}

/// The address as an IPv4 dotted quad when it is one or carries one; otherwise null.
function asIpv4(address: string): string | null {
  if (isIP(address) === 4) return address
  const words = ipv6Words(address)
  return words ? embeddedIpv4(words) : null
}

/// True for 127.0.0.0/8 and ::1 (also written IPv4-mapped).
export function isLoopbackAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '')
  const ipv4 = asIpv4(bare)
  if (ipv4) return ipv4.startsWith('127.')
  const words = ipv6Words(bare)
  return words !== null && words.slice(0, 7).every((w) => w === 0) && words[7] === 1
}

/// True for any address outbound requests (webhooks, web fetches) may not reach: every IPv4 range off the public
/// internet, in any spelling of IPv6 too (the URL parser writes IPv4-mapped addresses in hex), IPv6 forms that
/// lead to an IPv4 address, and IPv6's own local, link, site, multicast and documentation ranges. Not an IP
/// address at all: refused.
export function isRefusedAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '')
  const ipv4 = asIpv4(bare)
  if (ipv4) return isNonPublicIpv4(ipv4)
  const words = ipv6Words(bare)
  if (!words) return true
  const [w0 = 0, w1 = 0] = words
  const canonical = words.map((w) => w.toString(16)).join(':')
  return (
    words.slice(0, 4).every((w) => w === 0) || // ::/64: unspecified, loopback, IPv4-compatible and -translated
    (w0 & 0xfe00) === 0xfc00 || // unique local fc00::/7
    (w0 & 0xffc0) === 0xfe80 || // link-local fe80::/10
    (w0 & 0xffc0) === 0xfec0 || // site-local fec0::/10
    (w0 & 0xff00) === 0xff00 || // multicast
    (w0 === 0x2001 && w1 === 0x0db8) || // documentation
    (w0 === 0x0100 && canonical.startsWith('100:0:0:0:')) // discard-only 100::/64
  )
}

/// A DNS lookup for a socket that answers only with `addresses`, those just checked: whatever DNS would say a
/// moment later (rebinding), the connection goes where the check looked.
export function pinnedLookup(addresses: readonly string[]): LookupFunction {
  return (_hostname, options, callback) => {
    const answers = addresses
      .map((address) => ({ address, family: isIP(address) }))
      .filter((answer) => !options.family || answer.family === options.family)
    const first = answers[0]
    if (!first) {
      callback(Object.assign(new Error('no address of the requested family'), { code: 'ENOTFOUND' }), '', 0)
    } else if (options.all) {
      callback(null, answers)
    } else {
      callback(null, first.address, first.family)
    }
  }
}

/// Turns a host name into the addresses it resolves to. The engine uses the system resolver; tests inject
/// their own to play DNS answers that change (DNS rebinding).
export type HostResolver = (hostname: string) => Promise<string[]>

/// Every address the system resolver gives for `hostname`, IPv4 and IPv6.
export const lookupHost: HostResolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((answer) => answer.address)

/// A target that may not be called: it does not resolve, or not only to public addresses.
export class TargetRefused extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'TargetRefused'
  }
}

/// The addresses a request to `url` may connect to: its host's answers, each of them public, or loopback
/// when `allowLocal`. Throws `TargetRefused` otherwise.
export async function resolveTarget(url: URL, allowLocal: boolean, resolve: HostResolver): Promise<string[]> {
  const host = url.hostname.replace(/^\[|\]$/g, '')
  let addresses: string[]
  if (isIP(host)) {
    addresses = [host]
  } else {
    try {
      addresses = await resolve(host)
    } catch (error) {
      const code = (error as { code?: unknown }).code
      throw new TargetRefused(`host ${host} does not resolve${typeof code === 'string' ? ` (${code})` : ''}`)
    }
  }
  if (addresses.length === 0) throw new TargetRefused(`host ${host} does not resolve`)
  const refused = addresses.filter(
    (address) => !(allowLocal && isLoopbackAddress(address)) && isRefusedAddress(address),
  )
  if (refused.length > 0) {
    // What a name resolves to is not said: this message reaches API clients and stored records, which must not
    // learn internal DNS answers from it. An address given as the host is the user's own words.
    throw new TargetRefused(`host ${host} resolves to a non-public address${isIP(host) ? ` (${host})` : ''}`)
  }
  return addresses
}

/// Anything that may be an IP address in an error's text, with a port or a full stop after it; not a piece of
/// a word.
const ADDRESS_LIKE = /(?<![\w.:[\]])[\da-f.:[\]]+/gi

const unbracketed = (address: string): string => address.replace(/^\[|\]$/g, '')

/// The readings of `token` as an IP address (bracketed or not) followed by nothing, a full stop or a port, longest
/// first: Node writes an IPv6 address and its port unbracketed (`::1:443`), which reads both ways.
function addressesAtStart(token: string): string[] {
  const core = token.replace(/[.:]$/, '')
  return [token, core, core.replace(/:\d+$/, '')].filter((each) => isIP(unbracketed(each)))
}

/// `text`, the message of a request to `url` that failed, with every IP address in it hidden but the host of `url`
/// when that is one. Node and undici write the address they connected to into their errors (`connect
/// ECONNREFUSED 10.0.0.5:443`, `attempted addresses: …`), and what a host name resolves to is not for whoever
/// reads the error (an API client, a stored record); an address the user gave as the host is their own words.
export function withoutAddresses(text: string, url: string): string {
  const given = URL.canParse(url) ? unbracketed(new URL(url).hostname) : null
  return text.replace(ADDRESS_LIKE, (token) => {
    const readings = addressesAtStart(token)
    const [address] = readings
    if (address === undefined || readings.some((each) => unbracketed(each) === given)) return token
    return `[address hidden]${token.slice(address.length)}`
  })
}

/// An error in words, with its cause after it (undici's `fetch failed` says nothing more itself). When a host has
/// several addresses, Node tries each and, if every attempt fails, throws an AggregateError whose message is
/// empty: the attempts' codes (ECONNREFUSED, ETIMEDOUT…) say what happened instead.
function inWords(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const message =
    error instanceof AggregateError
      ? `${error.message || 'could not connect'} (${error.errors.length} addresses tried: ${[
          ...new Set(error.errors.map(codeOrWords)),
        ].join(', ')})`
      : error.message
  return error.cause === undefined ? message : `${message}: ${inWords(error.cause)}`
}

const codeOrWords = (error: unknown): string => {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' ? code : inWords(error)
}

/// Why a request to `url` failed, in words that name no address its host name resolved to.
export const failureReason = (error: unknown, url: string): string => withoutAddresses(inWords(error), url)
