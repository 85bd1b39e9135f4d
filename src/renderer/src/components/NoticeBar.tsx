import type { JSX } from 'react'
import { useChecks } from '../state/checks'

/// What went wrong or what to know, in words, in place above the editor; never replaces the text.
export function NoticeBar(): JSX.Element | null {
  const notice = useChecks((store) => store.notice)
  const dismiss = useChecks((store) => store.dismissNotice)
  if (!notice) return null
  return (
    <div className={`notice notice-${notice.kind}`} role={notice.kind === 'error' ? 'alert' : 'status'}>
      <span>{notice.text}</span>
      <button type="button" className="close" aria-label="Dismiss" onClick={dismiss}>
        ×
      </button>
    </div>
  )
}
