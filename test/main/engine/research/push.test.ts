import { describe, expect, it } from 'vitest'
import { REPORT_CHANNEL, type ReportUpdate } from '../../../../src/shared/api'
import { appPage } from '../../../../src/main/desktop/appPage'
import { forwardReports } from '../../../../src/main/desktop/push'
import { ReportEvents } from '../../../../src/main/engine/base/events'
import { researchRun } from '../../../helpers/resources'

const page = appPage(undefined)

const progress = (id: string): Extract<ReportUpdate, { type: 'research' }> => ({
  type: 'research',
  research: researchRun({ id }),
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
