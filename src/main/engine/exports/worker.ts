// A thread of the export pool (exports/pool.ts): rendering a large report is CPU work kept off the event loop
// that answers requests.
import { renderFile } from './render'
import type { RenderTask } from './pool'

export default function render({ report, format, comments }: RenderTask): Promise<Uint8Array<ArrayBuffer>> {
  return renderFile(report, format, comments)
}
