import { useEffect, type JSX } from 'react'
import type { FactdeskApi } from '../../shared/api'
import { Editor } from './components/Editor'
import { SessionNotice } from './components/SessionNotice'
import { StatusBar } from './components/StatusBar'
import { useAccount } from './state/account'

/// The editor window: the sign-in notice when browser mode has no session, the editor, and the status bar.
export function App({ api }: { api: FactdeskApi }): JSX.Element {
  const load = useAccount((store) => store.load)
  const signedOut = useAccount((store) => store.account.status === 'signed-out')

  useEffect(() => {
    void load(api)
  }, [api, load])

  return (
    <div className="app">
      {signedOut && <SessionNotice />}
      <Editor />
      <StatusBar />
    </div>
  )
}
