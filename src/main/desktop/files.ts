import { existsSync } from 'node:fs'
import { extname } from 'node:path'
import { z } from 'zod'
import type { DraftFiles, FileOperation, IpcResult } from '../../shared/api'
import { ApiError } from '../../shared/errors'
import { draftId } from '../../shared/operations'
import { SaveDraftRequest } from '../../shared/schemas'
import type { Engine } from '../engine/engine'
import { SAVABLE } from '../engine/files/formats'
import { isAppUrl } from './appPage'
import { asApiError, fieldErrors } from './dispatch'

const draftText = SaveDraftRequest.shape.text.unwrap()
/// The arguments of the file operations, checked like the engine's.
const FILE_OPERATION_ARGS = {
  openFile: z.tuple([]),
  saveFile: z.tuple([draftId, draftText]),
  saveFileAs: z.tuple([draftId, draftText]),
} satisfies Record<FileOperation, z.ZodType<unknown[]>>

/// The native dialogs the file operations ask: a path chosen, or null when the writer cancelled.
export interface FileDialogs {
  /// A Markdown, text or Word file to open.
  open(): Promise<string | null>
  /// Where to save the draft `title`, starting from its file if it has one.
  saveAs(title: string, filePath: string | null): Promise<string | null>
  /// Whether to replace the file at `path`: it `exists` (a name the save dialog did not ask about, as ".md" was
  /// added to it), or it `changed` on disk since the draft opened or saved it.
  confirmReplace(path: string, why: 'exists' | 'changed'): Promise<boolean>
  /// Whether to open the draft of the file at `path` with the writer's unsaved edits (true) or the file as it is
  /// on disk, both having changed since the draft opened or saved it; the edits then stay as the draft
  /// `editsTitle`.
  keepUnsavedEdits(path: string, editsTitle: string): Promise<boolean>
}

/// Answers one file operation from the page, like `Dispatch` does the others.
export type FileDispatch = (
  operation: FileOperation,
  args: unknown[],
  senderUrl: string | undefined,
) => Promise<IpcResult<unknown>>

/// The desktop's file operations: paths come from the dialogs only, never from the page, and only the app's own
/// page is answered; the drafts are the desktop's own principal's.
export function createFileDispatch(
  engine: Pick<Engine, 'drafts' | 'localPrincipal'>,
  page: URL,
  dialogs: FileDialogs,
): FileDispatch {
  const { drafts } = engine
  const saveTo = async (id: string, text: string, path: string | null) => {
    if (path === null) return null
    // A name typed without a known extension is saved as Markdown; the dialog asked about the name as typed.
    const target = SAVABLE.includes(extname(path).toLowerCase()) ? path : `${path}.md`
    const principal = await engine.localPrincipal()
    const ask =
      target !== path && existsSync(target)
        ? 'exists'
        : (await drafts.changedOnDisk(principal, id, target))
          ? 'changed'
          : null
    if (ask && !(await dialogs.confirmReplace(target, ask))) return null
    return drafts.saveFile(principal, id, text, target)
  }
  const files: DraftFiles = {
    openFile: async () => {
      const path = await dialogs.open()
      if (path === null) return null
      return drafts.openFile(await engine.localPrincipal(), path, (editsTitle) =>
        dialogs.keepUnsavedEdits(path, editsTitle),
      )
    },
    saveFile: async (id, text) => {
      const draft = await drafts.summary(await engine.localPrincipal(), id)
      return saveTo(id, text, draft.filePath ?? (await dialogs.saveAs(draft.title, null)))
    },
    saveFileAs: async (id, text) => {
      const draft = await drafts.summary(await engine.localPrincipal(), id)
      return saveTo(id, text, await dialogs.saveAs(draft.title, draft.filePath))
    },
  }
  return async (operation, args, senderUrl) => {
    try {
      if (senderUrl === undefined || !isAppUrl(senderUrl, page)) {
        throw new ApiError('forbidden', 'Only the Factdesk window may open and save files.')
      }
      const parsed = FILE_OPERATION_ARGS[operation].safeParse(args)
      if (!parsed.success) {
        throw new ApiError(
          'bad_request',
          `The arguments of ${operation} are not valid.`,
          fieldErrors(parsed.error),
        )
      }
      const run = files[operation] as (...args: unknown[]) => Promise<unknown>
      return { ok: true, data: await run(...parsed.data) }
    } catch (error) {
      return { ok: false, ...asApiError(fileError(error), operation).toEnvelope() }
    }
  }
}

/// Opens a file the system asked the app to open ("Open with", the command line) as a draft of the desktop's
/// principal, asking as Open… does when it changed on disk under unsaved edits: the draft's id, or the error
/// envelope of a file that cannot be opened, for the page to show.
export async function openAsked(
  engine: Pick<Engine, 'drafts' | 'localPrincipal'>,
  dialogs: FileDialogs,
  path: string,
): Promise<IpcResult<string>> {
  try {
    const draft = await engine.drafts.openFile(await engine.localPrincipal(), path, (editsTitle) =>
      dialogs.keepUnsavedEdits(path, editsTitle),
    )
    return { ok: true, data: draft.id }
  } catch (error) {
    return { ok: false, ...asApiError(error, 'openFile').toEnvelope() }
  }
}

// A file the system refused (no permission, a full disk, a folder gone) is the writer's to fix: say which.
function fileError(error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException | null)?.code
  const reasons: Record<string, string> = {
    EACCES: 'Factdesk may not write there',
    EPERM: 'Factdesk may not write there',
    EROFS: 'the disk is read-only',
    ENOSPC: 'the disk is full',
    ENOENT: 'the folder no longer exists',
    EISDIR: 'that is a folder',
  }
  const reason = code ? reasons[code] : undefined
  return reason ? new ApiError('unprocessable', `The file could not be saved: ${reason}.`) : error
}
