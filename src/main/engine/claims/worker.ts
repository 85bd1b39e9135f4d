// A thread of the claim extraction pool (claims/pool.ts): extraction is CPU work that grows with the text, kept
// off the event loop that answers requests.
import { extractClaims, type ExtractedClaim } from '.'
import type { ExtractionTask } from './pool'

export default function extract({ text, findClaims }: ExtractionTask): ExtractedClaim[] {
  return extractClaims(text, findClaims)
}
