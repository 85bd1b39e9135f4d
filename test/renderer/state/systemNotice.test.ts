import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Check } from '../../../src/shared/schemas'
import { announceEnded, askToNotify } from '../../../src/renderer/src/state/systemNotice'

// The page's browser, as far as announcements go: its focus and the Notification API.
let shown: { title: string; body: string }[]
let focused: boolean
let permission: NotificationPermission
let asked: number

beforeEach(() => {
  shown = []
  focused = false
  permission = 'granted'
  asked = 0
  vi.stubGlobal('window', {})
  vi.stubGlobal('document', { hasFocus: () => focused })
  vi.stubGlobal(
    'Notification',
    class {
      static get permission(): NotificationPermission {
        return permission
      }
      static requestPermission(): Promise<NotificationPermission> {
        asked++
        return Promise.resolve(permission)
      }
      constructor(
        readonly title: string,
        options: { body: string },
      ) {
        shown.push({ title, body: options.body })
      }
    },
  )
})
afterEach(() => vi.unstubAllGlobals())

const ended = (seconds: number, status: Check['status'] = 'completed'): Check =>
  ({
    id: 'chk_1',
    name: 'Tower piece',
    status,
    claimCount: 12,
    createdAt: '2026-11-22T10:00:00.000Z',
    updatedAt: '2026-11-22T10:00:00.000Z',
    completedAt: new Date(Date.parse('2026-11-22T10:00:00.000Z') + seconds * 1000).toISOString(),
  }) as Check

describe('announcements in browser mode', () => {
  it('announces a long check that ended while the page is in the background, and no short one', () => {
    announceEnded(ended(3))
    announceEnded(ended(40))
    focused = true
    announceEnded(ended(50, 'failed'))
    expect(shown).toEqual([{ title: 'Factdesk', body: 'Check “Tower piece” completed: 12 claims.' }])
  })

  it('announces nothing without the writer’s leave, and asks for it only while undecided', () => {
    permission = 'denied'
    askToNotify()
    announceEnded(ended(40))
    permission = 'default'
    askToNotify()
    expect(shown).toEqual([])
    expect(asked).toBe(1)
  })

  it('leaves announcing to the main process in the desktop app', () => {
    vi.stubGlobal('window', { factdesk: {} })
    announceEnded(ended(40))
    expect(shown).toEqual([])
  })
})
