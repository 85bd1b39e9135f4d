import { describe, expect, it } from 'vitest'
import { reconcile, windowTitle } from '../../../src/renderer/src/state/drafts'

const draft = {
  id: 'drf_1',
  title: 'article.md',
  preview: 'The article',
  filePath: '/home/writer/article.md',
  fileModified: false,
  lastCheckId: null,
  updatedAt: '2026-01-01T00:00:00.000Z',
  openedAt: '2026-01-01T00:00:00.000Z',
}

describe('the page side of drafts', () => {
  it("takes the page's copy of unsaved text over the server's, for that draft only", () => {
    expect(reconcile({ id: 'drf_1', text: 'saved' }, { draftId: 'drf_1', text: 'saved and typed' })).toBe(
      'saved and typed',
    )
    expect(reconcile({ id: 'drf_1', text: 'saved' }, { draftId: 'drf_2', text: 'other' })).toBe('saved')
    expect(reconcile({ id: 'drf_1', text: 'saved' }, null)).toBe('saved')
  })

  it('titles the window with the file name and a dot while the file has unsaved changes', () => {
    expect(windowTitle(null)).toBe('Factdesk')
    expect(windowTitle(draft)).toBe('article.md — Factdesk')
    expect(windowTitle({ ...draft, fileModified: true })).toBe('article.md • — Factdesk')
    // A draft with no file goes by its first words, as long as it has any.
    const untitled = { ...draft, title: 'Untitled', filePath: null, fileModified: true }
    expect(windowTitle(untitled)).toBe('The article • — Factdesk')
    expect(windowTitle({ ...untitled, preview: '' })).toBe('Untitled • — Factdesk')
  })
})
