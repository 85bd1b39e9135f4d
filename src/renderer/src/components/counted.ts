const numbers = new Intl.NumberFormat()

/// A number with its noun, in the reader's number format: "1 word", "1,000 credits".
export function counted(
  count: number,
  noun: 'word' | 'character' | 'credit' | 'claim' | 'more credit' | 'source',
): string {
  return `${numbers.format(count)} ${count === 1 ? noun : `${noun}s`}`
}
