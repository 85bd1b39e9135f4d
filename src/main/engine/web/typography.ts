// Text as a reader compares it: the same words whatever their typography. Models copy a page's ’ as ', its – as -,
// its non-breaking space as a space, and its "…" as "..."; they double spaces and change case. What is compared
// is folded first.

/// Characters a model may write for another: curly quotes and apostrophes, primes and accents used as
/// apostrophes, every dash and minus, and the ellipsis.
const FOLDS: Record<string, string> = {
  '‘': "'",
  '’': "'",
  '‚': "'",
  '‛': "'",
  '′': "'",
  '`': "'",
  '´': "'",
  '“': '"',
  '”': '"',
  '„': '"',
  '‟': '"',
  '″': '"',
  '«': '"',
  '»': '"',
  '‐': '-',
  '‑': '-',
  '‒': '-',
  '–': '-',
  '—': '-',
  '―': '-',
  '−': '-',
  '…': '...',
}

/// One character as it is compared (lower case, typography folded, any space a plain space).
export const foldChar = (char: string): string =>
  /\s/.test(char) ? ' ' : (FOLDS[char] ?? char.normalize('NFKC').toLowerCase())

/// `text` as it is compared: each character folded, runs of spaces one, trimmed.
export const folded = (text: string): string => Array.from(text, foldChar).join('').replace(/ +/g, ' ').trim()
