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

/// One character as it is compared (lower case, typography folded, any space a plain space). Pages are long and
/// mostly ASCII: an ASCII character is folded without a regular expression or normalisation.
export function foldChar(char: string): string {
  const code = char.charCodeAt(0)
  if (code < 128 && char.length === 1) {
    if (code === 32 || (code >= 9 && code <= 13)) return ' '
    return code >= 65 && code <= 90 ? String.fromCharCode(code + 32) : char
  }
  return /\s/.test(char) ? ' ' : (FOLDS[char] ?? char.normalize('NFKC').toLowerCase())
}

/// `text` as it is compared: each character folded, runs of spaces one, trimmed.
export const folded = (text: string): string => Array.from(text, foldChar).join('').replace(/ +/g, ' ').trim()
