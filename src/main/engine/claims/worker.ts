// A thread of the claim extraction pool (claims/pool.ts): extraction is CPU work that grows with the text, kept
// off the event loop that answers requests.
import { extractClaims, type ExtractedClaim } from '.'

export default function extract(text: string): ExtractedClaim[] {
  return extractClaims(text)
}
