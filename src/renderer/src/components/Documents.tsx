import { useEffect, useRef, type JSX } from 'react'
import type { DraftSummary } from '../../../shared/schemas'
import { withoutInlineMarks } from '../../../shared/markdown'
import { stageLabel } from '../editor/claims'
import type { SaveState } from '../state/autosave'
import { draftName, windowTitle } from '../state/drafts'
import { writtenMoment } from '../dates'
import { useDesk, useDrafts } from './useDesk'

const SAVE_WORDS: Record<SaveState, string> = {
  saved: 'Draft saved',
  saving: 'Saving…',
  unsaved: 'Unsaved',
  failed: 'Not saved',
}

/// The file types the page's Open… accepts.
const ACCEPT = '.md,.markdown,.txt,.docx'

/// The document bar: the draft's name and whether it is saved, New, Open…, the recent drafts, Save (a download
/// in a browser) and Save as…, and the claims of the last check that are no longer in the text.
export function Documents(): JSX.Element {
  const desk = useDesk()
  const { api } = desk
  const draft = useDrafts((store) => store.draft)
  const save = useDrafts((store) => store.save)
  const failure = useDrafts((store) => store.failure)
  const recent = useDrafts((store) => store.recent)
  const detached = useDrafts((store) => store.detached)
  const input = useRef<HTMLInputElement>(null)
  const drafts = desk.drafts.getState()
  const desktop = api.files !== null

  useEffect(() => desk.drafts.getState().start(), [desk])

  useEffect(() => {
    document.title = windowTitle(draft)
  }, [draft])

  // Ctrl/Cmd+O opens, Ctrl/Cmd+S saves (downloads, in a browser), Ctrl/Cmd+Shift+S saves as.
  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey) return
      const key = event.key.toLowerCase()
      if (key === 'o' && !event.shiftKey) {
        event.preventDefault()
        if (api.files) void desk.drafts.getState().openFile()
        else input.current?.click()
      } else if (key === 's') {
        event.preventDefault()
        void desk.drafts.getState().saveFile(event.shiftKey && api.files !== null)
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [api, desk])

  const name = draftName(draft) ?? draft?.title ?? 'Untitled'
  const status = save === 'failed' && failure ? `Not saved: ${failure}` : SAVE_WORDS[save]

  return (
    <nav className="documents-bar" aria-label="Document">
      <span className="documents-name" title={draft?.filePath ?? name}>
        {name}
        {draft?.fileModified && (
          <span className="documents-modified" aria-label="changes not saved to the file">
            {' •'}
          </span>
        )}
      </span>
      {/* Saving is announced only when it fails: "Saving…" and "Draft saved" come every few seconds. */}
      <span className={`documents-save documents-${save}`} role="status" aria-live="off" aria-label="Draft">
        {draft && status}
      </span>
      {/* The failure is read out at once: the alert stays in the page, empty, and only its content changes, since
          a screen reader often misses a live region that appears with its text. */}
      <span className="documents-alert visually-hidden" role="alert">
        {draft && save === 'failed' ? status : ''}
      </span>
      <div className="toolbar-group documents-actions">
        <button type="button" className="button" onClick={() => void drafts.create()}>
          New
        </button>
        <button
          type="button"
          className="button"
          title="Open a Markdown, text or Word file (Ctrl+O)"
          onClick={() => (api.files ? void drafts.openFile() : input.current?.click())}
        >
          Open…
        </button>
        <input
          ref={input}
          type="file"
          accept={ACCEPT}
          hidden
          aria-label="File to open"
          onChange={(event) => {
            const file = event.target.files?.[0]
            event.target.value = ''
            if (file) void drafts.importFile(file)
          }}
        />
        <RecentDrafts
          recent={recent}
          current={draft?.id ?? null}
          onShow={() => void drafts.loadRecent()}
          onOpen={(id) => void drafts.open(id)}
        />
        <button
          type="button"
          className="button"
          title={desktop ? 'Save to the file (Ctrl+S)' : 'Download the text as a file (Ctrl+S)'}
          onClick={() => void drafts.saveFile(false)}
        >
          {desktop ? 'Save' : 'Download'}
        </button>
        {desktop && (
          <button
            type="button"
            className="button"
            title="Save to another file (Ctrl+Shift+S)"
            onClick={() => void drafts.saveFile(true)}
          >
            Save as…
          </button>
        )}
      </div>
      {detached.length > 0 && (
        <details className="documents-detached">
          <summary>
            {detached.length === 1 ? '1 checked claim' : `${detached.length} checked claims`} no longer in the
            text
          </summary>
          <ul aria-label="Detached claims">
            {detached.map((claim) => (
              <li key={claim.claimId}>
                <span className={`fd-badge fd-stage-${claim.stage}`}>
                  {stageLabel({ stage: claim.stage, votes: 0, panel: null, stale: false })}
                </span>{' '}
                {withoutInlineMarks(claim.text)}
              </li>
            ))}
          </ul>
        </details>
      )}
    </nav>
  )
}

/// The recent drafts, most recently opened first, listed when opened.
function RecentDrafts({
  recent,
  current,
  onShow,
  onOpen,
}: {
  recent: DraftSummary[]
  current: string | null
  onShow: () => void
  onOpen: (id: string) => void
}): JSX.Element {
  const details = useRef<HTMLDetailsElement>(null)
  return (
    <details
      ref={details}
      className="documents-recent"
      onToggle={(event) => {
        if (event.currentTarget.open) onShow()
      }}
      // Escape closes the list and leaves the keys on Recent.
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || !details.current?.open) return
        event.stopPropagation()
        details.current.open = false
        details.current.querySelector('summary')?.focus()
      }}
    >
      <summary className="button">Recent</summary>
      <ul aria-label="Recent drafts">
        {recent.length === 0 && <li className="muted">No drafts yet.</li>}
        {recent.map((draft) => (
          <li key={draft.id}>
            <button
              type="button"
              aria-label={[
                draft.title,
                draft.preview,
                draft.fileModified ? 'changed since saved' : '',
                writtenMoment(draft.openedAt),
              ]
                .filter(Boolean)
                .join(', ')}
              aria-current={draft.id === current ? 'true' : undefined}
              title={draft.filePath ?? 'Not saved to a file'}
              onClick={() => {
                if (details.current) details.current.open = false
                onOpen(draft.id)
              }}
            >
              <span>{draft.title}</span>
              {draft.preview && <span className="recent-preview">{draft.preview}</span>}
              <span className="muted">
                {draft.fileModified ? ' •' : ''} {writtenMoment(draft.openedAt)}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </details>
  )
}
