import { describe, expect, it } from 'vitest'
import { EventStreamParser, type StreamedEvent } from '../../../src/shared/eventStream'

/// Lines ended by CRLF, LF and CR, a CR followed by a CRLF (a line, then a blank one), comments, a field without
/// a colon, an id with NUL, an event with nothing in it, and one the stream ends before finishing.
const SAMPLE =
  ': connected\r\n\r\n' +
  'id: 3f9a02c1-1\r\ndata: {"a":1}\r\n\r\n' +
  'id: 3f9a02c1-2\ndata: first\ndata:second\n\n' +
  'id: 3f9a02c1-3\rdata: {"b":2}\r\r' +
  'data\r\n: a comment\nid: 3f9a02c1\0-4\r\r\n' +
  '\r\n' +
  'data: unfinished'

const EVENTS: StreamedEvent[] = [
  { id: undefined, data: '' },
  { id: '3f9a02c1-1', data: '{"a":1}' },
  { id: '3f9a02c1-2', data: 'first\nsecond' },
  { id: '3f9a02c1-3', data: '{"b":2}' },
  { id: undefined, data: '' },
  { id: undefined, data: '' },
]

/// Every event the parser gives for `chunks`, one after the other.
function parse(chunks: readonly string[]): { events: StreamedEvent[]; unfinished: number } {
  const parser = new EventStreamParser()
  const events = chunks.flatMap((chunk) => parser.push(chunk))
  return { events, unfinished: parser.unfinished }
}

describe('EventStreamParser', () => {
  it('reads the same events however the stream is cut into chunks', () => {
    const whole = { events: EVENTS, unfinished: 'data: unfinished'.length }
    expect(parse([SAMPLE])).toEqual(whole)
    for (let at = 0; at <= SAMPLE.length; at++) {
      const chunks = [SAMPLE.slice(0, at), SAMPLE.slice(at)]
      expect(parse(chunks), JSON.stringify(chunks)).toEqual(whole)
    }
    expect(parse([...SAMPLE])).toEqual(whole)
    // An empty chunk between a CR and its LF changes nothing.
    const crlf = SAMPLE.indexOf('\r\n') + 1
    expect(parse([SAMPLE.slice(0, crlf), '', SAMPLE.slice(crlf)])).toEqual(whole)
  })
})
