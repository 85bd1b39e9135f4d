import { describe, expect, it } from 'vitest'
import { RECENT_EVENTS, ReportEvents, type ReportEvent } from '../../../../src/main/engine/base/events'
import { checkResource, researchRun } from '../../../helpers/resources'

const change = (n: number): ReportEvent => ({
  type: 'research',
  research: researchRun({ id: `rsc_${n}` }),
  step: null,
  sourcesRead: n,
  organizationId: 'org_1',
})

/// Emits `count` events and returns their ids, as a listener heard them.
function emitted(events: ReportEvents, count: number, from = 0): string[] {
  const ids: string[] = []
  const stop = events.numbered((_event, id) => ids.push(id))
  for (let n = from; n < from + count; n++) events.emit(change(n))
  stop()
  return ids
}

describe("the engine's numbered events", () => {
  it('gives what came after an id, in order, for as long as the latest events are kept', async () => {
    const events = new ReportEvents()
    const ids = emitted(events, 5)
    expect(new Set(ids).size).toBe(5)
    expect(
      (await events.since(ids[1]!))!.map(({ id, event }) => [
        id,
        event.type === 'research' && event.sourcesRead,
      ]),
    ).toEqual([
      [ids[2], 2],
      [ids[3], 3],
      [ids[4], 4],
    ])
    expect(await events.since(ids[4]!)).toEqual([])
    // Three times as many events later, the oldest ones are gone; the latest ones are all there.
    const later = emitted(events, 3 * RECENT_EVENTS, 5)
    expect(await events.since(ids[4]!)).toBeNull()
    const kept = (await events.since(later[later.length - RECENT_EVENTS - 1]!))!
    expect(kept.map(({ id }) => id)).toEqual(later.slice(-RECENT_EVENTS))
  })

  it("cannot tell what came after another stream's id, a future one, or what is not an id", async () => {
    const events = new ReportEvents()
    const ids = emitted(events, 3)
    const other = emitted(new ReportEvents(), 3)
    expect(await events.since(other[0]!)).toBeNull()
    const [name] = ids[0]!.split('-')
    expect(await events.since(`${name}-4`)).toBeNull()
    expect((await events.since(`${name}-0`))!.length).toBe(3)
    for (const bad of ['', 'x', `${name}-`, `${name}-1e3`, `${name}--1`])
      expect(await events.since(bad)).toBeNull()
  })

  it('never tells a check that ended as running again: progress read before its end and emitted after is left out', async () => {
    const events = new ReportEvents()
    const told = (id: string, status: 'running' | 'completed' | 'cancelled'): ReportEvent => ({
      type: 'check',
      organizationId: 'org_1',
      check: checkResource({ id, status }),
    })
    const [first] = emitted(events, 1)
    const said = (event: ReportEvent): string =>
      event.type === 'check' ? `${event.check.id} ${event.check.status}` : event.type
    const heard: string[] = []
    const numbered: string[] = []
    events.subscribe((event) => heard.push(said(event)))
    events.numbered((event) => numbered.push(said(event)))
    for (const event of [
      told('chk_1', 'running'),
      told('chk_2', 'running'),
      told('chk_1', 'completed'),
      told('chk_1', 'running'),
      told('chk_2', 'running'),
      told('chk_2', 'cancelled'),
      told('chk_2', 'running'),
      told('chk_1', 'completed'),
    ])
      events.emit(event)
    const expected = [
      'chk_1 running',
      'chk_2 running',
      'chk_1 completed',
      'chk_2 running',
      'chk_2 cancelled',
      'chk_1 completed',
    ]
    expect(heard).toEqual(expected)
    expect(numbered).toEqual(expected)
    expect((await events.since(first!))!.map(({ event }) => said(event))).toEqual(expected)
  })
})
