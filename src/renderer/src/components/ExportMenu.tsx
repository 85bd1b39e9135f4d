import { useState, type JSX } from 'react'
import { create } from 'zustand'
import type { ExportedFile } from '../../../shared/api'
import { EXPORT_FORMAT_IDS, EXPORT_FORMATS } from '../../../shared/exportFormats'
import type { ExportFormat } from '../../../shared/schemas'
import { showError } from '../state/notices'
import { lineKeys } from './roving'
import { useChecks, useDesk } from './useDesk'
import { useMenu } from './useMenu'

/// Hands a file to the browser's download (in the desktop app, its native save dialog).
function save(file: ExportedFile): void {
  const url = URL.createObjectURL(new Blob([file.data], { type: file.contentType }))
  const link = document.createElement('a')
  link.href = url
  link.download = file.fileName
  link.click()
  // The download has its own copy once started.
  setTimeout(() => URL.revokeObjectURL(url), 60_000)
}

/// Where each key of an open menu moves the focus.
const MENU_KEYS = lineKeys('ArrowDown', 'ArrowUp')

/// Whether the exports note every claim, those nothing could confirm too (else these are listed at the end):
/// the writer's choice, kept for the session.
const useNoteEvery = create<{ every: boolean; toggle: () => void }>()((set) => ({
  every: false,
  toggle: () => set(({ every }) => ({ every: !every })),
}))

/// Export: the latest check's annotated report as a file, in the format chosen from the menu.
export function ExportMenu(): JSX.Element {
  const { api } = useDesk()
  const check = useChecks((store) => store.check)
  const { open, setOpen, menu } = useMenu()
  const [busy, setBusy] = useState<ExportFormat | null>(null)
  const { every, toggle } = useNoteEvery()

  async function exportAs(format: ExportFormat): Promise<void> {
    if (!check) return
    setOpen(false)
    setBusy(format)
    try {
      save(await api.export(check.id, { format, comments: every ? 'all' : 'needed' }))
    } catch (error) {
      showError(error, 'The export failed: ')
    } finally {
      setBusy(null)
    }
  }

  return (
    <div
      className="export-menu"
      ref={menu}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open) {
          event.stopPropagation()
          setOpen(false)
          menu.current?.querySelector<HTMLButtonElement>('.export-button')?.focus()
        }
        // Tab leaves a menu, closing it; the arrows, Home and End move in it (WAI-ARIA menu button).
        if (open && event.key === 'Tab') setOpen(false)
        const move = MENU_KEYS[event.key]
        if (open && move) {
          event.preventDefault()
          const items = [...(menu.current?.querySelectorAll<HTMLButtonElement>('[role^="menuitem"]') ?? [])]
          const at = items.indexOf(document.activeElement as HTMLButtonElement)
          items[move(at, items.length)]?.focus()
        }
      }}
    >
      <button
        type="button"
        className="button quiet export-button"
        aria-haspopup="menu"
        aria-expanded={open}
        disabled={check === null || busy !== null}
        title={
          check
            ? 'Save the latest check as an annotated report'
            : 'Check the text first: exports show the verdicts'
        }
        onClick={() => setOpen(!open)}
      >
        {busy ? 'Exporting…' : 'Export'}
      </button>
      {open && (
        <div className="export-list" role="menu" aria-label="Export the report as">
          {EXPORT_FORMAT_IDS.map((format) => (
            <button
              key={format}
              type="button"
              role="menuitem"
              tabIndex={-1}
              onClick={() => void exportAs(format)}
            >
              <span className="export-name">{EXPORT_FORMATS[format].name}</span>
              <span className="export-detail">{EXPORT_FORMATS[format].detail}</span>
            </button>
          ))}
          <div role="separator" className="export-separator" />
          <button
            type="button"
            role="menuitemcheckbox"
            aria-checked={every}
            tabIndex={-1}
            className="export-choice"
            onClick={toggle}
          >
            <span className="export-name">
              <span aria-hidden="true">{every ? '☑' : '☐'}</span> Note every claim, the unconfirmed too
            </span>
            <span className="export-detail">
              {every
                ? 'a comment or note on each claim'
                : 'the claims nothing could confirm are listed at the end'}
            </span>
          </button>
        </div>
      )}
    </div>
  )
}
