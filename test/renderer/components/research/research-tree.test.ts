import { describe, expect, it } from 'vitest'
import {
  allExpanded,
  argumentTree,
  treeKey,
  visibleItems,
  type ArgumentMap,
  type TreeItem,
} from '../../../../src/renderer/src/components/research/tree'

const source = (quote: string) => ({
  url: 'https://en.wikipedia.org/wiki/Ottawa',
  title: 'Ottawa',
  quote,
  retrievedAt: '2026-01-01T00:00:00.000Z',
  publishedAt: null,
  stance: 'supports' as const,
  preferred: false,
})

// As the engine builds it: arguments point at the claim, evidence at its argument; the dissent comes first
// here, and one edge points at a node that does not exist.
const MAP: ArgumentMap = {
  nodes: [
    { id: 'claim', kind: 'claim', text: 'Ottawa is the capital of Canada.', sources: [] },
    { id: 'a1', kind: 'dissent', text: 'Toronto was once a capital.', sources: [source('Toronto was')] },
    { id: 'e1', kind: 'evidence', text: 'Toronto was', sources: [source('Toronto was')] },
    { id: 'a2', kind: 'proof', text: 'Ottawa is named the capital.', sources: [source('Ottawa is')] },
    { id: 'e2', kind: 'evidence', text: 'Ottawa is', sources: [source('Ottawa is')] },
    { id: 'e3', kind: 'evidence', text: 'Nothing points here.', sources: [] },
  ],
  edges: [
    { from: 'a1', to: 'claim', relation: 'attacks' },
    { from: 'e1', to: 'a1', relation: 'supports' },
    { from: 'a2', to: 'claim', relation: 'supports' },
    { from: 'e2', to: 'a2', relation: 'supports' },
    { from: 'ghost', to: 'claim', relation: 'supports' },
    // A cycle back to the root must not loop.
    { from: 'claim', to: 'e2', relation: 'supports' },
  ],
}

const shape = (item: TreeItem): unknown => ({
  id: item.node.id,
  relation: item.relation,
  level: item.level,
  children: item.children.map(shape),
})

const tree = (): TreeItem => {
  const root = argumentTree(MAP)
  if (!root) throw new Error('no tree')
  return root
}

describe('the argument map as a tree', () => {
  it('puts the claim at the root, proofs before dissents, evidence under its argument', () => {
    expect(shape(tree())).toEqual({
      id: 'claim',
      relation: null,
      level: 1,
      children: [
        {
          id: 'a2',
          relation: 'supports',
          level: 2,
          children: [{ id: 'e2', relation: 'supports', level: 3, children: [] }],
        },
        {
          id: 'a1',
          relation: 'attacks',
          level: 2,
          children: [{ id: 'e1', relation: 'supports', level: 3, children: [] }],
        },
      ],
    })
  })

  it('has no tree without a claim node', () => {
    expect(argumentTree({ nodes: MAP.nodes.filter((n) => n.kind !== 'claim'), edges: MAP.edges })).toBeNull()
  })

  it('shows every node when fully expanded, and hides the children of a closed node', () => {
    const root = tree()
    const open = allExpanded(root)
    expect([...open].sort()).toEqual(['a1', 'a2', 'claim'])
    expect(visibleItems(root, open).map((entry) => entry.item.node.id)).toEqual([
      'claim',
      'a2',
      'e2',
      'a1',
      'e1',
    ])
    const closed = new Set(open)
    closed.delete('a2')
    expect(visibleItems(root, closed).map((entry) => entry.item.node.id)).toEqual(['claim', 'a2', 'a1', 'e1'])
  })
})

describe('walking the argument map by keyboard', () => {
  const root = tree()
  const open = allExpanded(root)
  const press = (focus: string, key: string, expanded: ReadonlySet<string> = open) =>
    treeKey(root, expanded, focus, key)

  it('moves down and up through the visible items, stopping at the ends', () => {
    expect(press('claim', 'ArrowDown')?.focus).toBe('a2')
    expect(press('e2', 'ArrowDown')?.focus).toBe('a1')
    expect(press('e1', 'ArrowDown')?.focus).toBe('e1')
    expect(press('a1', 'ArrowUp')?.focus).toBe('e2')
    expect(press('claim', 'ArrowUp')?.focus).toBe('claim')
    expect(press('a1', 'Home')?.focus).toBe('claim')
    expect(press('claim', 'End')?.focus).toBe('e1')
  })

  it('closes with Left, then goes to the parent; opens with Right, then enters', () => {
    const closed = press('a2', 'ArrowLeft')
    expect(closed?.focus).toBe('a2')
    expect(closed?.expanded.has('a2')).toBe(false)
    expect(press('a2', 'ArrowDown', closed?.expanded)?.focus).toBe('a1')
    const reopened = press('a2', 'ArrowRight', closed?.expanded)
    expect(reopened?.focus).toBe('a2')
    expect(reopened?.expanded.has('a2')).toBe(true)
    expect(press('a2', 'ArrowRight')?.focus).toBe('e2')
    expect(press('e2', 'ArrowLeft')?.focus).toBe('a2')
    expect(press('e2', 'ArrowRight')?.focus).toBe('e2')
    expect(press('claim', 'ArrowLeft')?.expanded.has('claim')).toBe(false)
  })

  it('leaves other keys alone and ignores an unknown focus', () => {
    expect(press('claim', 'a')).toBeNull()
    expect(press('e3', 'ArrowDown')).toBeNull()
  })
})
