import { useCallback, useEffect, useMemo, useState, type JSX } from 'react'
import type { FactdeskApi } from '../../shared/api'
import type { PriceList } from '../../shared/schemas'
import { Documents } from './components/Documents'
import { Editor } from './components/Editor'
import { NoticeBar } from './components/NoticeBar'
import { SessionNotice } from './components/SessionNotice'
import { SettingsDialog } from './components/settings/SettingsDialog'
import { useSettingsDialog } from './components/settings/open'
import { DeskContext } from './components/useDesk'
import { SidePanel } from './components/panels/SidePanel'
import { StatusBar } from './components/StatusBar'
import { Toolbar } from './components/Toolbar'
import { useAccount } from './state/account'
import { Desk } from './state/desk'

/// The editor window: the sign-in notice when browser mode has no session, the check toolbar, the editor with
/// its side panel, and the status bar.
export function App({ api }: { api: FactdeskApi }): JSX.Element {
  // The window's desk and its stores: made once, for every component (a context).
  const desk = useMemo(() => new Desk(api), [api])
  const load = useAccount((store) => store.load)
  const signedOut = useAccount((store) => store.account.status === 'signed-out')
  const [prices, setPrices] = useState<PriceList | null>(null)

  useEffect(() => {
    void load(api)
    api.credits().then(
      (credits) => setPrices(credits.prices),
      () => setPrices(null),
    )
  }, [api, load])

  useEffect(() => desk.checks.getState().connect(), [desk])
  useEffect(() => desk.research.getState().connect(), [desk])
  useEffect(() => desk.pending.getState().connect(), [desk])

  // Ctrl/Cmd+Shift+E estimates, Ctrl/Cmd+Shift+Enter checks, Ctrl/Cmd+Shift+D researches the selection or the
  // claim at the cursor, wherever the focus is.
  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      if (!(event.ctrlKey || event.metaKey) || !event.shiftKey) return
      if (event.key === 'E' || event.key === 'e') {
        event.preventDefault()
        void desk.checks.getState().runEstimate()
      } else if (event.key === 'Enter') {
        event.preventDefault()
        void desk.checks.getState().runCheck()
      } else if (event.key === 'D' || event.key === 'd') {
        event.preventDefault()
        void desk.research.getState().askFromEditor()
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [desk])

  // Ctrl/Cmd+, opens the settings, as in most desktop apps.
  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      if ((event.ctrlKey || event.metaKey) && !event.shiftKey && !event.altKey && event.key === ',') {
        event.preventDefault()
        useSettingsDialog.getState().open()
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])

  const openClaim = useCallback((claimId: string) => void desk.checks.getState().showClaim(claimId), [desk])

  return (
    <DeskContext.Provider value={desk}>
      <div className="app">
        {signedOut && <SessionNotice />}
        {/* The page's banner and its one first-level heading, for those who move by landmarks and headings. */}
        <header className="banner">
          <h1 className="visually-hidden">Factdesk</h1>
          <Documents />
          <Toolbar prices={prices} />
        </header>
        <NoticeBar />
        <div className="workspace">
          <Editor onOpenClaim={openClaim} />
          <SidePanel />
        </div>
        <StatusBar />
        <SettingsDialog />
      </div>
    </DeskContext.Provider>
  )
}
