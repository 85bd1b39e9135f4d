import { isIPv6 } from 'node:net'
import { networkInterfaces } from 'node:os'

/// A `Host` header as it may be written: a name or an IPv4 address, or an IPv6 address in brackets, then a port.
const HOST_HEADER = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/

/// What a server makes of a request's `Host` (or of the authority of a request target in absolute form):
/// answered, addressed to another host (`misdirected`, also when there is none), or not a host at all
/// (`malformed`).
export type HostVerdict = 'answered' | 'misdirected' | 'malformed'

/// Which `Host` headers a server listening on `address`:`port` answers: its own address and `localhost`, with the
/// port (every address of this computer when it listens on all of them), and the `allowedHosts` names on any port
/// (a reverse proxy in front presents its own). Only those spellings: upper case, short or numeric forms of an
/// address (`127.1`, `2130706433`) and a trailing dot are other hosts to Node's URL parser and to a browser's
/// origin alike. A page of any other name is refused even when that name resolves to this computer: that is how
/// DNS rebinding would let a web site read the API.
export function hostCheck(
  address: string,
  port: number,
  allowedHosts: readonly string[],
): (host: string | undefined) => HostVerdict {
  const addresses = address === '0.0.0.0' || address === '::' ? everyAddress() : [address]
  const exact = new Set(
    [...addresses, 'localhost'].flatMap((name) => {
      const shown = isIPv6(name) ? `[${name}]` : name
      return port === 80 ? [`${shown}:${port}`, shown] : [`${shown}:${port}`]
    }),
  )
  const names = new Set(allowedHosts)
  return (host) => {
    if (host === undefined) return 'misdirected'
    if (!HOST_HEADER.test(host)) return 'malformed'
    return exact.has(host) || names.has(host.replace(/:\d+$/, '')) ? 'answered' : 'misdirected'
  }
}

function everyAddress(): string[] {
  return Object.values(networkInterfaces()).flatMap((infos) => (infos ?? []).map((info) => info.address))
}
