import type { JSX } from 'react'
import { useNotices, type Notice } from '../state/notices'
import { useSettingsDialog } from './settings/open'
import { useDesk } from './useDesk'

/// What went wrong or what to know, in words, in place above the editor; never replaces the text. A check that
/// could not start because its providers are unreachable is offered "Check when online", one whose tiers need
/// models the way to Settings. An error is read out at
/// once (an alert), anything else when the reader pauses (a status): both regions stay in the page, empty, and
/// only their content changes, since a screen reader often misses a live region that appears with its text.
export function NoticeBar(): JSX.Element {
  const notice = useNotices((store) => store.notice)
  return (
    <>
      <NoticeRegion role="alert" notice={notice?.kind === 'error' ? notice : null} />
      <NoticeRegion role="status" notice={notice?.kind === 'info' ? notice : null} />
    </>
  )
}

function NoticeRegion({ role, notice }: { role: 'alert' | 'status'; notice: Notice | null }): JSX.Element {
  const desk = useDesk()
  const dismiss = useNotices((store) => store.dismiss)
  return (
    <div className={`notice-region${notice ? ` notice notice-${notice.kind}` : ''}`} role={role}>
      {notice && (
        <>
          <span>{notice.text}</span>
          {notice.settings && (
            <span className="notice-actions">
              <button type="button" className="button" onClick={() => useSettingsDialog.getState().open()}>
                Open Settings
              </button>
            </span>
          )}
          {notice.offline && (
            <span className="notice-actions">
              <button
                type="button"
                className="button primary"
                onClick={() => void desk.pending.getState().queue()}
              >
                Check when online
              </button>
              <button type="button" className="button" onClick={dismiss}>
                Cancel
              </button>
            </span>
          )}
          <button type="button" className="close" aria-label="Dismiss" onClick={dismiss}>
            ×
          </button>
        </>
      )}
    </div>
  )
}
