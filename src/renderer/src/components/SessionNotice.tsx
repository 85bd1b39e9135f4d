import type { JSX } from 'react'

/// Shown in browser mode when the page has no session: opened without its link, or after the server restarted.
export function SessionNotice(): JSX.Element {
  return (
    <div className="session-notice" role="alert">
      <strong>
        This page needs the link printed by <code>factdesk web</code>.
      </strong>{' '}
      Run <code>factdesk web</code> in a terminal and open the link it prints, the one ending in{' '}
      <code>#token=…</code>. It signs this browser in; after that, reloading the page keeps working.
    </div>
  )
}
