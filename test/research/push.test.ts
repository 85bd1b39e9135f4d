import { describe, expect, it } from 'vitest'
import { REPORT_CHANNEL, type ReportUpdate } from '../../src/shared/api'
import { appPage } from '../../src/main/desktop/appPage'
import { forwardReports } from '../../src/main/desktop/push'
import { ReportEvents } from '../../src/main/engine/events'

const page = appPage(undefined, '/opt/Factdesk/out/renderer/index.html')

const progress = (id: string): Extract<ReportUpdate, { type: 'research' }> => ({
  type: 'research',
  research: {
    id,
    status: 'running',
    claimId: null,
    text: 'Ottawa is the capital of Canada.',
    credits: { charged: 40, refunded: 0 },
    result: null,
    error: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:01.000Z',
    completedAt: null,
  },
  step: 'search-support',
  sourcesRead: 3,
})

describe('research progress in the desktop app', () => {
  it("is pushed to the organization's window, without the organization, and to no other", () => {
    const events = new ReportEvents()
    const sent: Array<{ channel: string; update: unknown }> = []
    const contents = {
      send: (channel: string, update: unknown) => void sent.push({ channel, update }),
      getURL: () => `${page.href}#/`,
      isDestroyed: () => false,
      once: () => undefined,
    } as never
    forwardReports(events, 'org_1', contents, page)
    events.emit({ ...progress('rsc_1'), organizationId: 'org_1' })
    events.emit({ ...progress('rsc_2'), organizationId: 'org_2' })
    expect(sent).toEqual([{ channel: REPORT_CHANNEL, update: progress('rsc_1') }])
  })
})
