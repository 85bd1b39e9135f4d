/// A source policy's sites (the `SourcePolicy` of schemas.ts, which validates its sites with `siteName` here).
interface Sites {
  prefer: readonly string[]
  only: readonly string[]
  never: readonly string[]
}

/// A site as a source policy names it, or null when `input` names none: a host name (which covers its
/// subdomains) or an IP address, lower case, without a trailing dot; a web address pasted whole names its host
/// ("https://www.example.org/" names www.example.org). A path would name part of a site, which a policy cannot
/// keep apart: refused.
export function siteName(input: string): string | null {
  let site = input.trim().toLowerCase()
  if (site === '') return null
  if (!/^https?:\/\//.test(site)) site = `http://${/^[0-9a-f:]*:[0-9a-f:]*$/.test(site) ? `[${site}]` : site}`
  const url = URL.parse(site)
  if (!url || url.username || url.password || url.search || url.hash || !/^\/?$/.test(url.pathname))
    return null
  // The URL parser writes IP addresses in their usual form and names in Punycode.
  const host = url.hostname.replace(/\.$/, '')
  return /^(?:[a-z0-9_-]+\.)*[a-z0-9_-]+$|^\[[0-9a-f:.]+\]$/.test(host) ? host : null
}

/// An address's host as a policy's sites are written, or null when it has none.
export function hostOf(url: string): string | null {
  const host = URL.parse(url)?.hostname.toLowerCase().replace(/\.$/, '')
  return host ? host : null
}

/// Whether `site` covers `host`: the same, or a subdomain of it (an IP address covers only itself).
export const covers = (site: string, host: string): boolean =>
  host === site || (!isIpAddress(site) && host.endsWith(`.${site}`))

/// An IPv4 address, or an IPv6 one in brackets (as the URL parser writes hosts).
export const isIpAddress = (host: string): boolean => host.startsWith('[') || /^[\d.]+$/.test(host)

/// Whether a policy says anything at all.
export const hasPolicy = (policy: Sites): boolean =>
  policy.prefer.length + policy.only.length + policy.never.length > 0

/// A policy in a few words, as a report's method line gives it: "preferred reuters.com; only reuters.com,
/// apnews.com; never example.com"; null for a policy that says nothing.
export function policyWords(policy: Sites): string | null {
  const parts = [
    policy.prefer.length > 0 ? `preferred ${policy.prefer.join(', ')}` : null,
    policy.only.length > 0 ? `only ${policy.only.join(', ')}` : null,
    policy.never.length > 0 ? `never ${policy.never.join(', ')}` : null,
  ].filter((part) => part !== null)
  return parts.length > 0 ? parts.join('; ') : null
}
