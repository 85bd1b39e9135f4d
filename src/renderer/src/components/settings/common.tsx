import { useCallback, useState, type JSX } from 'react'
import type { FactdeskApi } from '../../../../shared/api'
import type { SavedKey, Settings } from '../../../../shared/schemas'
import { focusLost } from '../focus'

/// What every tab gets: the API, the settings as last saved, and the way to hand on newly saved ones.
export interface TabProps {
  api: FactdeskApi
  settings: Settings
  onSaved(settings: Settings): void
}

/// Runs one request of a form at a time and keeps its failure in words for the form to show in place. A button
/// disabled while its request runs loses the focus: it gets it back when the request ends, if it is still
/// there and nothing else took the focus meanwhile.
export function useRequest(): {
  busy: boolean
  error: string | null
  run<T>(work: () => Promise<T>): Promise<T | undefined>
  clear(): void
} {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const run = useCallback(async <T,>(work: () => Promise<T>): Promise<T | undefined> => {
    const focused = document.activeElement instanceof HTMLElement ? document.activeElement : null
    setBusy(true)
    setError(null)
    try {
      return await work()
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure))
      return undefined
    } finally {
      setBusy(false)
      requestAnimationFrame(() => {
        if (focused?.isConnected && focusLost()) focused.focus()
      })
    }
  }, [])
  const clear = useCallback(() => setError(null), [])
  return { busy, error, run, clear }
}

/// A request's failure, in place, read out when it appears.
export function Problem({ text }: { text: string | null }): JSX.Element | null {
  if (!text) return null
  return (
    <p className="settings-problem" role="alert">
      {text}
    </p>
  )
}

/// Says next to a key field, before a key is typed, why keys are not kept here (no keychain) and what to do
/// instead; `id` is for the field's `aria-describedby`, so that a screen reader hears it on the field too.
export function KeysRefused({ id, reason }: { id: string; reason: string | null }): JSX.Element | null {
  if (!reason) return null
  return (
    <p id={id} className="field-note keys-refused">
      {reason}
    </p>
  )
}

/// How a saved key is shown: never the key, only that there is one and how it ends.
export function savedKeyText(key: SavedKey): string {
  if (!key.hasKey) return 'No key saved'
  return key.last4 ? `Key saved, ending in ${key.last4}` : 'Key saved'
}

/// What a form says when its address is no longer the one its saved key or token was saved for.
export const movedKeyText = (what: 'key' | 'token'): string =>
  `The saved ${what} stays with the address it was saved for: enter this address's ${what}, or saving forgets it.`

/// Copies `text` to the clipboard; says whether it could.
async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text)
    return true
  } catch {
    return false
  }
}

/// A Copy button that says "Copied" for a moment, or asks to copy by hand when the clipboard refuses.
export function CopyButton({ text, label }: { text: string; label: string }): JSX.Element {
  const [state, setState] = useState<'idle' | 'copied' | 'refused'>('idle')
  return (
    <button
      type="button"
      className="button"
      aria-label={label}
      onClick={() =>
        void copyText(text).then((copied) => {
          setState(copied ? 'copied' : 'refused')
          window.setTimeout(() => setState('idle'), 2000)
        })
      }
    >
      {state === 'copied' ? 'Copied' : state === 'refused' ? 'Select and copy it' : 'Copy'}
    </button>
  )
}
