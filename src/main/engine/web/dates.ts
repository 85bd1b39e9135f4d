// A page's own publication date, when it declares one: the Open Graph article's `article:published_time`,
// schema.org JSON-LD `datePublished` (also inside an `@graph`), or the first `<time datetime>` of the article.
// A model weighing "currently" or "the latest" needs to know how old a source is, not only when it was read.

/// The part of a parsed document the dates are read from (linkedom's and the DOM's documents alike).
interface DatedDocument {
  querySelector(selector: string): { getAttribute(name: string): string | null } | null
  querySelectorAll(selector: string): ArrayLike<{ textContent: string | null }>
}

/// A date as an ISO-8601 UTC timestamp; null for anything that is not a date (or is before 1900 or absurdly
/// far ahead, which no page is published on).
export function isoDate(value: unknown): string | null {
  if (typeof value !== 'string') return null
  const text = value.trim()
  // Only date forms: Date.parse would also read "12" or "May" as some date.
  const form =
    /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)\s*(Z|[+-]\d{2}:?\d{2})?)?$/i.exec(text)
  if (!form) return null
  const [, day, time, zone] = form
  // A time without a zone is read as UTC (as a bare date is), not as the engine's local time.
  const at = Date.parse(time ? `${day}T${time}${zone ?? 'Z'}` : `${day}`)
  if (!Number.isFinite(at)) return null
  // Date.parse rolls 2024-02-30 over to March; a day that does not exist is no date.
  const [year, month, date] = (day as string).split('-').map(Number) as [number, number, number]
  if (new Date(Date.UTC(year, month - 1, date)).getUTCDate() !== date) return null
  return year >= 1900 && year <= 2200 ? new Date(at).toISOString() : null
}

/// A date a search API gives for a result, as an ISO-8601 UTC timestamp: ISO-8601 (Brave's `page_age`,
/// SearXNG's `publishedDate`, MediaWiki's `timestamp`) or an HTTP date ("Wed, 03 Apr 2024 15:24:14 GMT", as
/// Tavily writes `published_date`); null for anything else (Brave's "2 days ago" too).
export function resultDate(value: unknown): string | null {
  if (typeof value !== 'string') return null
  const http =
    /^(?:[A-Za-z]{3},\s*)?(\d{1,2}) ([A-Za-z]{3}) (\d{4})(?: (\d{2}:\d{2}(?::\d{2})?))?(?: (?:GMT|UTC|Z))?$/.exec(
      value.trim(),
    )
  if (!http) return isoDate(value)
  const [, day, month, year, time] = http
  const index = MONTHS.indexOf((month as string).toLowerCase())
  if (index < 0) return null
  return isoDate(
    `${year}-${String(index + 1).padStart(2, '0')}-${(day as string).padStart(2, '0')}${time ? `T${time}Z` : ''}`,
  )
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']

/// `datePublished` of the first JSON-LD item that has one: an item, an array of items, or an `@graph`.
function jsonLdDate(value: unknown): string | null {
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = jsonLdDate(item)
      if (found) return found
    }
    return null
  }
  if (typeof value !== 'object' || value === null) return null
  const item = value as Record<string, unknown>
  return isoDate(item.datePublished) ?? jsonLdDate(item['@graph'])
}

/// The page's publication date as an ISO UTC timestamp, or null when it declares none that is valid. Read
/// before scripts are removed (JSON-LD lives in a script element).
export function publishedAt(document: DatedDocument): string | null {
  const meta = document.querySelector(
    'meta[property="article:published_time"], meta[name="article:published_time"]',
  )
  const fromMeta = isoDate(meta?.getAttribute('content'))
  if (fromMeta) return fromMeta
  for (const script of Array.from(document.querySelectorAll('script[type="application/ld+json"]'))) {
    try {
      const found = jsonLdDate(JSON.parse(script.textContent ?? ''))
      if (found) return found
    } catch {
      // A broken JSON-LD block says nothing.
    }
  }
  const time =
    document.querySelector('article time[datetime]') ??
    document.querySelector('main time[datetime]') ??
    document.querySelector('time[datetime]')
  return isoDate(time?.getAttribute('datetime'))
}
