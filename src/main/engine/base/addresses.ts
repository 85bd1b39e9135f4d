import { lookup } from 'node:dns/promises'
import { isIP, type LookupFunction } from 'node:net'
import ipaddr from 'ipaddr.js'

// Where the engine's outbound requests (webhooks, web fetches) may go: which IP addresses, how a host is
// resolved and checked, and the pinned lookup that connects only to what was checked.

/// An IP address in one of the standard spellings Node connects to (brackets and an IPv6 zone id allowed), or
/// null for anything else.
function parsed(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const bare = address.replace(/^\[|\]$/g, '')
  return isIP(bare.replace(/%.*$/, '')) === 0 ? null : ipaddr.parse(bare)
}

/// The IPv4 address an IPv6 address leads to, where it is one that reaches IPv4: IPv4-mapped, IPv4-translated
/// (RFC 6145), NAT64 (RFC 6052) and 6to4. Their ranges are ipaddr.js's; where the IPv4 address sits is theirs.
function carriedIpv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const words = address.parts
  const v4 = (high = 0, low = 0) => new ipaddr.IPv4([high >> 8, high & 255, low >> 8, low & 255])
  switch (address.range()) {
    case 'ipv4Mapped':
    case 'rfc6145':
    case 'rfc6052':
      return v4(words[6], words[7])
    case '6to4':
      return v4(words[1], words[2])
    default:
      return null
  }
}

/// The address as IPv4 when it is one or leads to one.
const asIpv4 = (address: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | null =>
  address instanceof ipaddr.IPv4 ? address : carriedIpv4(address)

/// True for loopback and nothing else: 127.0.0.0/8, ::1 and ::ffff:127.0.0.0/104 (IPv4-mapped, which the socket
/// reaches as IPv4). Loopback carried in another IPv6 form (6to4, NAT64, IPv4-translated) leaves this computer
/// through a gateway, if it goes anywhere: it is refused like any other non-public address.
export function isLoopbackAddress(address: string): boolean {
  const ip = parsed(address)
  if (!ip) return false
  const ipv4 = ip instanceof ipaddr.IPv6 && ip.range() === 'ipv4Mapped' ? ip.toIPv4Address() : ip
  return ipv4.range() === 'loopback'
}

/// True for any address outbound requests (webhooks, web fetches) may not reach: any but ipaddr.js's `unicast`
/// (private, loopback, link-local, carrier-grade NAT, documentation, benchmarking, Teredo, multicast,
/// reserved…), in IPv4 and IPv6 alike, and an IPv6 address that leads to an IPv4 one (the URL parser writes
/// IPv4-mapped addresses in hex) unless that one is unicast. Also refused: the rest of ::/16 (IPv4-compatible
/// addresses, deprecated, and unassigned space ipaddr.js calls unicast), and anything that is not an IP address.
export function isRefusedAddress(address: string): boolean {
  const ip = parsed(address)
  if (!ip) return true
  const ipv4 = asIpv4(ip)
  if (ipv4) return ipv4.range() !== 'unicast'
  return ip.range() !== 'unicast' || (ip instanceof ipaddr.IPv6 && ip.parts[0] === 0)
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

/// A target that may not be called: it does not resolve (`unresolved`: maybe only now, offline), or not only to
/// public addresses (`not_public`: a configuration no retry mends).
export class TargetRefused extends Error {
  constructor(
    message: string,
    readonly why: 'unresolved' | 'not_public',
  ) {
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
      throw new TargetRefused(
        `host ${host} does not resolve${typeof code === 'string' ? ` (${code})` : ''}`,
        'unresolved',
      )
    }
  }
  if (addresses.length === 0) throw new TargetRefused(`host ${host} does not resolve`, 'unresolved')
  const refused = addresses.filter(
    (address) => !(allowLocal && isLoopbackAddress(address)) && isRefusedAddress(address),
  )
  if (refused.length > 0) {
    // What a name resolves to is not said: this message reaches API clients and stored records, which must not
    // learn internal DNS answers from it. An address given as the host is the user's own words.
    throw new TargetRefused(
      `host ${host} resolves to a non-public address${isIP(host) ? ` (${host})` : ''}`,
      'not_public',
    )
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
