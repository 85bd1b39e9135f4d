import { createHash } from 'node:crypto'
import { readFile, stat } from 'node:fs/promises'
import { basename, extname } from 'node:path'
import { anchorOf } from '../../../shared/anchors'
import { ApiError } from '../../../shared/errors'
import { withoutLineMarkers } from '../../../shared/markdown'
import {
  draftLengthProblem,
  fileSizeProblem,
  MAX_DRAFT_CHARS,
  type CreateDraftRequest,
  type Draft,
  type DraftAnchor,
  type DraftList,
  type DraftSummary,
  type ImportFileRequest,
  type SaveDraftRequest,
  UNTITLED_DRAFT,
} from '../../../shared/schemas'
import { conventionsOf, EDITOR_CONVENTIONS, fileText, kindOf, textOfFile } from './formats'
import { writeFileAtomic } from './write'
import type { Config } from '../../../shared/config'
import type { Clock } from '../base/clock'
import { newId } from '../base/ids'
import { PerMinuteLimit, quotaReached } from '../base/rateLimit'
import type { Principal } from '../checks/access'
import type { Store } from '../store'
import type { DraftChanges, DraftRecord } from '../store/drafts'

/// A size in words: `1.5 MB`.
const megabytes = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`

/// How many drafts the recent list shows.
const RECENT_LIMIT = 30

const digestOf = (text: string): string => createHash('sha256').update(text).digest('hex')

/// Refuses a file's text too long for a draft (the autosave could never save it again).
function requireDraftText(name: string, text: string): string {
  const problem = draftLengthProblem(`"${name}"`, text.length)
  if (problem) throw new ApiError('unprocessable', problem)
  return text
}

/// The largest file that may hold a draft's text: three UTF-8 bytes for each UTF-16 character at most, and a
/// byte-order mark. A Word document's own limit is on what it unpacks to (`MAX_UNPACKED_BYTES`).
const MAX_TEXT_FILE_BYTES = 3 * MAX_DRAFT_CHARS + 3

/// How long a draft's preview is at most.
const PREVIEW_CHARS = 80

/// A text's first words: its first line with letters or digits, without Markdown's heading, quote and list
/// markers, spaces collapsed, cut at a word within PREVIEW_CHARS.
export function previewOf(text: string): string {
  const line = text
    .slice(0, 2000)
    .split('\n')
    .map((each) => withoutLineMarkers(each).replace(/\s+/g, ' ').trim())
    .find((each) => /[\p{L}\p{N}]/u.test(each))
  if (!line || line.length <= PREVIEW_CHARS) return line ?? ''
  const cut = line.slice(0, PREVIEW_CHARS)
  return `${cut.slice(0, cut.lastIndexOf(' ') > 0 ? cut.lastIndexOf(' ') : PREVIEW_CHARS)}…`
}

/// The draft without its text: whether the text matches its file as last opened or saved.
function summaryOf(draft: DraftRecord): DraftSummary {
  return {
    id: draft.id,
    title: draft.title,
    preview: previewOf(draft.text),
    filePath: draft.filePath,
    fileModified: draft.fileDigest === null ? draft.text !== '' : digestOf(draft.text) !== draft.fileDigest,
    lastCheckId: draft.lastCheckId,
    updatedAt: draft.updatedAt,
    openedAt: draft.openedAt,
  }
}

const viewOf = (draft: DraftRecord): Draft => ({
  ...summaryOf(draft),
  text: draft.text,
  anchors: draft.anchors,
})

/// The writer's drafts: texts autosaved to the store so that nothing typed is lost to a crash, each maybe tied
/// to a file on disk, and to the last check made of it (whose claims are kept as anchors to place its verdicts
/// again, even in a text changed since). Files by path are the desktop's alone: paths come from its dialogs,
/// never from the API.
export class DraftService {
  private readonly newDrafts: PerMinuteLimit

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly limits: Pick<
      Config['limits'],
      'drafts' | 'draftBytes' | 'draftsPerMinute' | 'importBytes'
    >,
  ) {
    this.newDrafts = new PerMinuteLimit(clock, limits.draftsPerMinute, 'draftsPerMinute')
  }

  /// The most recently opened drafts first.
  async list(principal: Principal): Promise<DraftList> {
    return { data: (await this.store.drafts.recent(principal.organizationId, RECENT_LIMIT)).map(summaryOf) }
  }

  async create(principal: Principal, request: CreateDraftRequest): Promise<Draft> {
    return viewOf(
      await this.insert(principal, request.title ?? UNTITLED_DRAFT, request.text ?? '', null, null),
    )
  }

  /// The draft without its text (where its file is, say).
  async summary(principal: Principal, id: string): Promise<DraftSummary> {
    return summaryOf(await this.find(principal, id))
  }

  /// The draft with its text; it moves to the top of the recent list.
  async open(principal: Principal, id: string): Promise<Draft> {
    const draft = await this.find(principal, id)
    return viewOf(await this.change(draft, { openedAt: this.now() }))
  }

  /// The autosave: cheap and idempotent, answers the draft without its text.
  async save(principal: Principal, id: string, request: SaveDraftRequest): Promise<DraftSummary> {
    const draft = await this.find(principal, id)
    const changes: Omit<DraftChanges, 'updatedAt'> = {}
    if (request.text !== undefined && request.text !== draft.text) changes.text = request.text
    if (request.title !== undefined && request.title !== draft.title) changes.title = request.title
    if (request.lastCheckId !== undefined && request.lastCheckId !== draft.lastCheckId) {
      changes.lastCheckId = request.lastCheckId
      changes.anchors =
        request.lastCheckId === null ? [] : await this.anchorsOf(principal, request.lastCheckId)
    }
    if (request.savedToFile) changes.fileDigest = digestOf(request.text ?? draft.text)
    if (Object.keys(changes).length === 0) return summaryOf(draft)
    return summaryOf(await this.change(draft, { ...changes, openedAt: this.now() }))
  }

  /// A file the page read: Markdown and text as they are, a Word document as Markdown; a new draft holds it.
  async importFile(principal: Principal, request: ImportFileRequest): Promise<Draft> {
    const bytes = Buffer.from(request.content, 'base64')
    // A limit of the API, which reads the file whole into memory from any client; the desktop app's own page
    // hands it over in the app (up to MAX_FILE_BYTES, a Word document with its pictures).
    if (!principal.owner && bytes.length > this.limits.importBytes) {
      throw quotaReached(
        'importBytes',
        `"${request.name}" is ${megabytes(bytes.length)}; a file to import can be at most ${megabytes(this.limits.importBytes)}`,
      )
    }
    const text = requireDraftText(request.name, await textOfFile(request.name, bytes))
    // A Word document is imported, not opened: it is saved (downloaded) as Markdown under its own name.
    const docx = kindOf(request.name) === 'docx'
    const title = docx ? `${basename(request.name, extname(request.name))}.md` : request.name
    return viewOf(await this.insert(principal, title, text, null, docx ? null : digestOf(text)))
  }

  /// Opens a file from disk (the desktop's dialogs): its draft if it has one, else a new draft. The draft keeps
  /// unsaved changes as long as the file did not change since; a file changed elsewhere while its draft had none
  /// replaces the draft's text. When both changed, `keepUnsavedEdits` asks the writer which to open: the draft
  /// as it is (saving it later asks before replacing the file), or the file, with the edits kept in a new draft
  /// named `editsTitle` and placed in the recent list where the draft was. A Word document is imported as a new,
  /// unsaved draft.
  async openFile(
    principal: Principal,
    path: string,
    keepUnsavedEdits: (editsTitle: string) => Promise<boolean>,
  ): Promise<Draft> {
    const name = basename(path)
    const unreadable = (): never => {
      throw new ApiError('unprocessable', `"${name}" could not be read.`)
    }
    // Sized before it is read: a file of hundreds of megabytes would be read whole only to be refused.
    const size = (await stat(path).catch(unreadable)).size
    if (kindOf(path) !== 'docx' && size > MAX_TEXT_FILE_BYTES) {
      throw new ApiError(
        'unprocessable',
        `"${name}" is ${(size / 1e6).toFixed(1)} MB, too long for a draft: a draft holds at most ${MAX_DRAFT_CHARS.toLocaleString('en')} characters.`,
      )
    }
    const tooLarge = fileSizeProblem(name, size)
    if (tooLarge) throw new ApiError('unprocessable', tooLarge)
    const bytes = await readFile(path).catch(unreadable)
    const text = requireDraftText(name, await textOfFile(name, bytes))
    if (kindOf(path) === 'docx') {
      return viewOf(await this.insert(principal, `${basename(path, extname(path))}.md`, text, null, null))
    }
    const digest = digestOf(text)
    const draft = await this.store.drafts.byFile(principal.organizationId, path)
    if (!draft) return viewOf(await this.insert(principal, name, text, path, digest))
    const edited = digestOf(draft.text)
    const opened = { openedAt: this.now() }
    if (draft.fileDigest === digest) return viewOf(await this.change(draft, opened))
    // Edits that made the text the file's now are as good as none.
    if (draft.fileDigest === edited || edited === digest) {
      return viewOf(await this.change(draft, { ...opened, text, fileDigest: digest }))
    }
    const editsTitle = `${basename(name, extname(name))} (unsaved edits)${extname(name)}`
    const keep = await keepUnsavedEdits(editsTitle)
    // Read again: an autosave may have landed while the writer was asked.
    return await this.store.transaction(
      async (tx) => {
        const current = await this.find(principal, draft.id, tx)
        if (keep) return viewOf(await this.change(current, { openedAt: this.now() }, tx))
        const now = this.now()
        await this.requireRoom(principal.organizationId, current.text, null, tx)
        await tx.drafts.insert({
          ...current,
          id: newId('drf', this.clock.now()),
          title: editsTitle,
          filePath: null,
          fileDigest: null,
          createdAt: now,
          updatedAt: now,
        })
        return viewOf(await this.change(current, { text, fileDigest: digest, openedAt: now }, tx))
      },
      { lockOrg: principal.organizationId },
    )
  }

  /// Whether the draft's own file at `path` changed on disk since the draft last opened or saved it: another
  /// program wrote it, and saving over it would lose what that program wrote. A file that is gone, or that is not
  /// the draft's, did not.
  async changedOnDisk(principal: Principal, id: string, path: string): Promise<boolean> {
    const draft = await this.find(principal, id)
    if (draft.filePath !== path || draft.fileDigest === null) return false
    const bytes = await readFile(path).catch(() => null)
    if (!bytes) return false
    const text = await textOfFile(basename(path), bytes).catch(() => null)
    return text === null || digestOf(text) !== draft.fileDigest
  }

  /// Saves `text` as the draft's and writes it to `path` (`writeFileAtomic`: a crash never leaves only a part of
  /// the new text), with the line ends and byte-order mark of the file it replaces; the draft then belongs to
  /// that file and is named after it. An autosave that lands while the file is written keeps its newer text (the
  /// file then holds the older one, so the draft shows changes not saved to it).
  async saveFile(principal: Principal, id: string, text: string, path: string): Promise<DraftSummary> {
    const draft = await this.find(principal, id)
    const replaced = await readFile(path).catch(() => null)
    await writeFileAtomic(path, fileText(text, replaced ? conventionsOf(replaced) : EDITOR_CONVENTIONS))
    // A file has one draft: one that held this path before lets it go.
    const previous = await this.store.drafts.byFile(principal.organizationId, path)
    return await this.store.transaction(
      async (tx) => {
        if (previous && previous.id !== id)
          await tx.drafts.update(previous.id, { filePath: null, fileDigest: null, updatedAt: this.now() })
        const current = await this.find(principal, id, tx)
        return summaryOf(
          await this.change(
            current,
            {
              text: current.text === draft.text ? text : current.text,
              filePath: path,
              fileDigest: digestOf(text),
              title: basename(path),
              openedAt: this.now(),
            },
            tx,
          ),
        )
      },
      { lockOrg: principal.organizationId },
    )
  }

  private async anchorsOf(principal: Principal, checkId: string): Promise<DraftAnchor[]> {
    const check = await this.store.checks.get(principal.organizationId, checkId)
    // A manuscript's parts, one after another in its text.
    const checks = check ? [check] : await this.store.checks.ofManuscript(principal.organizationId, checkId)
    // The desktop app may check on a remote service (its settings): the page then anchors from that report.
    if (checks.length === 0 && principal.owner) return []
    if (checks.length === 0) throw new ApiError('not_found', `There is no check ${checkId}.`)
    let from = 0
    const anchors: DraftAnchor[] = []
    for (const part of checks) {
      const text = await this.store.documents.text(part.documentId)
      for (const claim of await this.store.documents.claims(part.documentId)) {
        const anchor = anchorOf(text, claim.charStart, claim.charEnd)
        anchors.push({ claimId: claim.id, ...anchor, start: anchor.start + from, end: anchor.end + from })
      }
      from += text.length
    }
    return anchors
  }

  private async insert(
    principal: Principal,
    title: string,
    text: string,
    filePath: string | null,
    fileDigest: string | null,
  ): Promise<DraftRecord> {
    const now = this.now()
    const draft: DraftRecord = {
      id: newId('drf', this.clock.now()),
      organizationId: principal.organizationId,
      title,
      filePath,
      text,
      fileDigest,
      lastCheckId: null,
      anchors: [],
      createdAt: now,
      updatedAt: now,
      openedAt: now,
    }
    // Under the organization's lock: the minute's new drafts and the quota are counted and the draft written in
    // one step, so that requests at once, on any replica, never pass a limit together; a refusal counts nothing.
    await this.store.transaction(
      async (tx) => {
        await this.newDrafts.require(tx.recentRequests, principal.organizationId, 'new drafts')
        await this.requireRoom(principal.organizationId, text, null, tx)
        await tx.drafts.insert(draft)
      },
      { lockOrg: principal.organizationId },
    )
    return draft
  }

  /// Changes a draft in `store` (the root's, or a transaction's that holds the organization's lock): a new text is
  /// measured against the quota, as the draft is now, and saved in one step under the organization's lock.
  private async change(
    draft: DraftRecord,
    changes: Omit<DraftChanges, 'updatedAt'>,
    store = this.store,
  ): Promise<DraftRecord> {
    const updatedAt = this.now()
    await store.transaction(
      async (tx) => {
        if (changes.text !== undefined) {
          const current = (await tx.drafts.get(draft.organizationId, draft.id)) ?? draft
          await this.requireRoom(draft.organizationId, changes.text, current, tx)
        }
        await tx.drafts.update(draft.id, { ...changes, updatedAt })
      },
      { lockOrg: draft.organizationId },
    )
    return { ...draft, ...changes, updatedAt }
  }

  /// Refuses a new draft of `text` (or `text` replacing the text of `replaced`) that would take the organization
  /// past `limits.drafts` or `limits.draftBytes`; a text no longer than the one it replaces always fits. In a
  /// transaction that holds the organization's lock, with the write it allows.
  private async requireRoom(
    organizationId: string,
    text: string,
    replaced: DraftRecord | null,
    store: Store,
  ): Promise<void> {
    const usage = await store.drafts.usage(organizationId)
    if (!replaced && usage.drafts >= this.limits.drafts) {
      throw quotaReached(
        'drafts',
        `This organization keeps ${usage.drafts.toLocaleString('en')} drafts, the most it may`,
      )
    }
    const added = Buffer.byteLength(text) - (replaced ? Buffer.byteLength(replaced.text) : 0)
    if (added > 0 && usage.bytes + added > this.limits.draftBytes) {
      throw quotaReached(
        'draftBytes',
        `This organization's drafts hold ${megabytes(usage.bytes)}; this text would take them past the ` +
          `${megabytes(this.limits.draftBytes)} they may hold`,
      )
    }
  }

  private async find(principal: Principal, id: string, store = this.store): Promise<DraftRecord> {
    const draft = await store.drafts.get(principal.organizationId, id)
    if (!draft) throw new ApiError('not_found', `There is no draft ${id}.`)
    return draft
  }

  private now(): string {
    return this.clock.now().toISOString()
  }
}
