import { isIPv6 } from 'node:net'
import { networkInterfaces } from 'node:os'

/// A `Host` header as it may be written: a name or an IPv4 address, or an IPv6 address in brackets, then a port.
const HOST_HEADER = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/

/// Which `Host` headers a server listening on `address`:`port` answers: its own address and `localhost`, with the
/// port (every address of this computer when it listens on all of them), and the `allowedHosts` names on any port
/// (a reverse proxy in front presents its own). A page of any other name is refused even when that name resolves
/// to this computer: that is how DNS rebinding would let a web site read the API.
export function hostCheck(
  address: string,
  port: number,
  allowedHosts: readonly string[],
): (host: string | undefined) => boolean {
  const addresses = address === '0.0.0.0' || address === '::' ? everyAddress() : [address]
  const exact = new Set([...addresses, 'localhost'].map((name) => hostOf(name, port)))
  const names = new Set(allowedHosts)
  return (host) => {
    if (host === undefined || !HOST_HEADER.test(host)) return false
    const url = URL.parse(`http://${host}`)
    return url !== null && (exact.has(url.host) || names.has(url.hostname))
  }
}

/// `name:port` as a URL writes it (lower case, IPv6 in brackets, no port 80).
const hostOf = (name: string, port: number): string =>
  new URL(`http://${isIPv6(name) ? `[${name}]` : name}:${port}`).host

function everyAddress(): string[] {
  return Object.values(networkInterfaces()).flatMap((infos) => (infos ?? []).map((info) => info.address))
}
