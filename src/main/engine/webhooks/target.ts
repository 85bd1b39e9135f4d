import { lookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import { ApiError } from '../../../shared/errors'
import { isLoopbackAddress, isRefusedAddress } from '../addresses'

/// Turns a host name into the addresses it resolves to. The engine uses the system resolver; tests inject
/// their own to play DNS answers that change (DNS rebinding).
export type HostResolver = (hostname: string) => Promise<string[]>

/// Every address the system resolver gives for `hostname`, IPv4 and IPv6.
export const lookupHost: HostResolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((answer) => answer.address)

/// A webhook target that may not be called: it does not resolve, or not only to public addresses.
export class TargetRefused extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'TargetRefused'
  }
}

/// The addresses a delivery to `url` may connect to: its host's answers, each of them public, or loopback
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
    throw new TargetRefused(`host ${host} resolves to a non-public address (${refused.join(', ')})`)
  }
  return addresses
}

/// At submission: the `callbackUrl`'s host must resolve, and only to public addresses (or loopback when
/// allowed); 422 otherwise. The syntax was checked before (`requireCallbackUrl`).
export async function requireCallbackTarget(
  callbackUrl: string,
  allowLocal: boolean,
  resolve: HostResolver,
): Promise<void> {
  try {
    await resolveTarget(new URL(callbackUrl), allowLocal, resolve)
  } catch (error) {
    if (!(error instanceof TargetRefused)) throw error
    throw new ApiError('unprocessable', `callbackUrl must be a public address: its ${error.message}.`, [
      { field: 'callbackUrl', message: error.message },
    ])
  }
}
