import type { JSX } from 'react'
import { useAccount, type Account } from '../state/account'
import { useDocument } from '../state/document'
import { counted } from '../../../shared/counted'
import { useSettingsDialog } from './settings/open'

/// The bar at the foot of the window: the document's counts on the left, the account and its balance on the right.
export function StatusBar(): JSX.Element {
  const words = useDocument((store) => store.words)
  const characters = useDocument((store) => store.characters)
  const account = useAccount((store) => store.account)
  return (
    <footer className="status-bar">
      {/* Shown, never announced: a screen reader would hear it on every keystroke. */}
      <div className="status-group" role="status" aria-live="off" aria-label="Document length">
        <span>{counted(words, 'word')}</span>
        <span>{counted(characters, 'character')}</span>
      </div>
      <div className="status-group" role="status" aria-label="Account">
        <AccountStatus account={account} />
        <button
          type="button"
          className="status-link"
          onClick={() => useSettingsDialog.getState().open('credits')}
        >
          Add credits
        </button>
      </div>
    </footer>
  )
}

function AccountStatus({ account }: { account: Account }): JSX.Element {
  switch (account.status) {
    case 'loading':
      return <span>Loading balance…</span>
    case 'signed-out':
      return <span className="status-problem">Not signed in</span>
    case 'failed':
      return (
        <span className="status-problem" title={account.message}>
          Balance unavailable: {account.message}
        </span>
      )
    case 'ready':
      return (
        <>
          <span className="status-organization">{account.organization}</span>
          <span className="status-balance">{counted(account.balance, 'credit')}</span>
        </>
      )
  }
}
