import { useEffect, useRef, useState, type JSX, type KeyboardEvent } from 'react'
import type { Settings } from '../../../../shared/schemas'
import { Problem, useRequest } from './common'
import { CreditsTab } from './CreditsTab'
import { KeysTab } from './KeysTab'
import { ModelsTab } from './ModelsTab'
import { useDesk } from '../useDesk'
import { lineKeys } from '../roving'
import { SETTINGS_TABS, useSettingsDialog, type SettingsTab } from './open'
import { SearchTab } from './SearchTab'
import { ServiceTab } from './ServiceTab'
import { WritingTab } from './WritingTab'

const TAB_NAMES: Record<SettingsTab, string> = {
  models: 'Models',
  search: 'Search',
  writing: 'Writing',
  credits: 'Credits',
  keys: 'API keys',
  service: 'Service',
}

const TAB_KEYS = lineKeys('ArrowRight', 'ArrowLeft')

/// The Settings dialog: a modal `<dialog>` (focus stays inside, Escape closes it) with one tab per part.
export function SettingsDialog(): JSX.Element | null {
  const tab = useSettingsDialog((store) => store.tab)
  if (tab === null) return null
  return <OpenDialog tab={tab} />
}

function OpenDialog({ tab }: { tab: SettingsTab }): JSX.Element {
  const { api, checks } = useDesk()
  const { open, close } = useSettingsDialog.getState()
  const dialog = useRef<HTMLDialogElement>(null)
  const tabs = useRef<Partial<Record<SettingsTab, HTMLButtonElement | null>>>({})
  const [settings, setSettings] = useState<Settings | null>(null)
  const loading = useRequest()
  const { run } = loading

  useEffect(() => {
    const element = dialog.current
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null
    if (element && !element.open) element.showModal()
    // Closing unmounts the dialog: the focus goes back where it was (the editor, the Settings button), so the
    // next keystroke is not lost on the page.
    return () => before?.focus()
  }, [])

  useEffect(() => {
    void run(() => api.settings()).then((loaded) => loaded && setSettings(loaded))
  }, [api, run])

  // Arrow keys, Home and End move between the tabs, as in every tab list.
  const onTabKey = (event: KeyboardEvent<HTMLDivElement>): void => {
    const move = TAB_KEYS[event.key]
    const next = move && SETTINGS_TABS[move(SETTINGS_TABS.indexOf(tab), SETTINGS_TABS.length)]
    if (!next) return
    event.preventDefault()
    open(next)
    tabs.current[next]?.focus()
  }

  const onSaved = (saved: Settings): void => {
    setSettings(saved)
    void checks.getState().settingsSaved()
  }
  const props = settings ? { api, settings, onSaved } : null
  return (
    <dialog
      ref={dialog}
      className="settings-dialog"
      aria-labelledby="settings-title"
      onClose={close}
      onCancel={(event) => {
        event.preventDefault()
        close()
      }}
    >
      <header className="settings-head">
        <h2 id="settings-title">Settings</h2>
        <button type="button" className="close" aria-label="Close settings" onClick={close}>
          ×
        </button>
      </header>
      <div className="settings-tabs" role="tablist" aria-label="Settings" onKeyDown={onTabKey}>
        {SETTINGS_TABS.map((each) => (
          <button
            key={each}
            ref={(element) => {
              tabs.current[each] = element
            }}
            type="button"
            role="tab"
            id={`settings-tab-${each}`}
            aria-selected={each === tab}
            aria-controls={`settings-panel-${each}`}
            tabIndex={each === tab ? 0 : -1}
            className={`settings-tab${each === tab ? ' on' : ''}`}
            onClick={() => open(each)}
          >
            {TAB_NAMES[each]}
          </button>
        ))}
      </div>
      <section
        className="settings-panel"
        role="tabpanel"
        id={`settings-panel-${tab}`}
        aria-labelledby={`settings-tab-${tab}`}
      >
        <Problem text={loading.error && `The settings cannot be read: ${loading.error}`} />
        {!props && !loading.error && <p className="muted">Loading settings…</p>}
        {props && tab === 'models' && <ModelsTab {...props} />}
        {props && tab === 'search' && <SearchTab {...props} />}
        {props && tab === 'writing' && <WritingTab {...props} />}
        {props && tab === 'credits' && <CreditsTab {...props} />}
        {props && tab === 'keys' && <KeysTab {...props} />}
        {props && tab === 'service' && <ServiceTab {...props} />}
      </section>
    </dialog>
  )
}
