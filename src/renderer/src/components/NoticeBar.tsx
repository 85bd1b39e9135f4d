import type { JSX } from 'react'
import type { FactdeskApi } from '../../../shared/api'
import { useChecks } from '../state/checks'
import { usePending } from '../state/pending'

/// What went wrong or what to know, in words, in place above the editor; never replaces the text. A check that
/// could not start because its providers are unreachable is offered "Check when online".
export function NoticeBar({ api }: { api: FactdeskApi }): JSX.Element | null {
  const notice = useChecks((store) => store.notice)
  const dismiss = useChecks((store) => store.dismissNotice)
  if (!notice) return null
  return (
    <div className={`notice notice-${notice.kind}`} role={notice.kind === 'error' ? 'alert' : 'status'}>
      <span>{notice.text}</span>
      {notice.offline && (
        <span className="notice-actions">
          <button
            type="button"
            className="button primary"
            onClick={() => void usePending.getState().queue(api)}
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
    </div>
  )
}
