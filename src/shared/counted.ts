const numbers = new Intl.NumberFormat()

/// A number in the reader's number format: "1,221".
export const formatted = (count: number): string => numbers.format(count)

/// A number with its noun, in the reader's number format: "1 word", "1,000 credits", "5 spelling fixes".
export function counted(
  count: number,
  noun:
    | 'word'
    | 'character'
    | 'credit'
    | 'claim'
    | 'part'
    | 'more credit'
    | 'source'
    | 'distinct source'
    | 'spelling fix',
): string {
  return `${formatted(count)} ${count === 1 ? noun : noun.endsWith('x') ? `${noun}es` : `${noun}s`}`
}
