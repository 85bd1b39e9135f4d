import type { JSX } from 'react'
import { useChecks, useDesk } from '../useDesk'
import { ResearchPanel } from '../research/ResearchPanel'
import { ClaimDetail } from './ClaimDetail'
import { EstimateSummary } from './EstimateSummary'
import { History } from './History'

/// The panel beside the editor: the estimate, a claim's detail, or the check history.
export function SidePanel(): JSX.Element | null {
  const desk = useDesk()
  const panel = useChecks((store) => store.panel)
  const estimate = useChecks((store) => store.estimate)
  const showPanel = useChecks((store) => store.showPanel)
  if (panel === null) return null
  // Closing gives the keys back to the text.
  const close = (): void => {
    showPanel(null)
    desk.view()?.focus()
  }
  const title =
    panel === 'estimate'
      ? 'Estimate'
      : panel === 'claim'
        ? 'Claim'
        : panel === 'research'
          ? 'Deep research'
          : 'Check history'
  return (
    <aside
      className={`side-panel${panel === 'research' ? ' side-panel-wide' : ''}`}
      aria-label={title}
      // Focusable, for `focusPanel` when what had the focus inside is gone.
      tabIndex={-1}
      // Escape closes the panel and gives the keys back to the text (a question inside it answers first).
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || event.defaultPrevented) return
        close()
      }}
    >
      <div className="side-head">
        <h2>{title}</h2>
        <button type="button" className="close" aria-label="Close panel" onClick={close}>
          ×
        </button>
      </div>
      <div className="side-body">
        {panel === 'estimate' && estimate && <EstimateSummary estimate={estimate} />}
        {panel === 'claim' && <ClaimDetail />}
        {panel === 'research' && <ResearchPanel />}
        {panel === 'history' && <History />}
      </div>
    </aside>
  )
}
