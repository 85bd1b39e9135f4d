import type { JSX } from 'react'
import { citationDates, PREFERRED_SOURCE, stanceWords } from '../../../../shared/citations'
import type { Citation } from '../../../../shared/schemas'
import { Confirmation } from '../Confirmation'

/// The host name of a source's URL, or the URL itself when it is not one.
function domainOf(url: string): string {
  try {
    return new URL(url).hostname
  } catch {
    return url
  }
}

/// A source as a screen reader names it: its title (or domain), its domain, and whether it is a preferred one.
export const sourceName = (citation: Citation): string =>
  `${citation.title || domainOf(citation.url)} (${domainOf(citation.url)}${citation.preferred ? `, ${PREFERRED_SOURCE}` : ''})`

/// A source as a link that only asks to be opened: its title (or domain), its domain, whether the source policy
/// prefers its site, and optionally its
/// verbatim quote, its dates and how it bears on the claim. Without `tabStop` it is for the mouse only: inside a widget the arrow keys
/// walk (the argument map), whose item opens it with Enter and names it.
export function SourceLink({
  citation,
  onOpen,
  quote = true,
  tabStop = true,
}: {
  citation: Citation
  onOpen: (citation: Citation) => void
  quote?: boolean
  tabStop?: boolean
}): JSX.Element {
  return (
    <>
      <button
        type="button"
        className="claim-link"
        tabIndex={tabStop ? undefined : -1}
        onClick={() => onOpen(citation)}
      >
        {citation.title || domainOf(citation.url)}
      </button>
      <span className="muted"> · {domainOf(citation.url)}</span>
      {citation.preferred && <span className="preferred-source"> · {PREFERRED_SOURCE}</span>}
      {quote && <q>{citation.quote}</q>}
      {quote && (
        <span className="muted">
          {[citationDates(citation), stanceWords(citation.stance)].filter(Boolean).join(' · ')}
        </span>
      )}
    </>
  )
}

/// Asks before a source opens, showing its whole URL; in the desktop app the main process then opens it in the
/// system browser (guards.ts). Escape answers Cancel.
export function OpenLinkDialog({ url, onClose }: { url: string; onClose: () => void }): JSX.Element {
  return (
    <Confirmation label="Open link" alert onCancel={onClose}>
      <p>Open this page in your browser?</p>
      <code className="confirm-url">{url}</code>
      <div className="confirm-actions">
        {/* The dialog takes the focus, so that a keyboard reader answers it at once. */}
        <button type="button" className="button" onClick={onClose} autoFocus>
          Cancel
        </button>
        <button
          type="button"
          className="button primary"
          onClick={() => {
            window.open(url, '_blank', 'noopener,noreferrer')
            onClose()
          }}
        >
          Open
        </button>
      </div>
    </Confirmation>
  )
}
