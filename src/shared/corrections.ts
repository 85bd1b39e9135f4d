// A judge's suggested correction as a report carries it. t2's come from no source, so they start with
// UNVERIFIED; the words that would replace the claim are the rest.

/// Marks a judge's suggested correction as text no source has confirmed.
export const UNVERIFIED = '(unverified) '

/// The words a correction would put in place of the claim, and whether no source has confirmed them.
export function correctionWords(correction: string): { words: string; unverified: boolean } {
  const unverified = correction.startsWith(UNVERIFIED)
  return { words: unverified ? correction.slice(UNVERIFIED.length) : correction, unverified }
}
