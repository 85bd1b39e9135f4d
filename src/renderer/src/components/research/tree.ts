import type { Research } from '../../../../shared/schemas'

export type ArgumentMap = NonNullable<Research['result']>['argumentMap']
export type ArgumentNode = ArgumentMap['nodes'][number]
export type Relation = ArgumentMap['edges'][number]['relation']

/// One node of the argument map as a tree item: its relation to its parent (null at the root), its children
/// and its depth (1 at the root, as `aria-level` counts).
export interface TreeItem {
  node: ArgumentNode
  relation: Relation | null
  level: number
  children: TreeItem[]
}

const KIND_ORDER: Record<ArgumentNode['kind'], number> = { claim: 0, proof: 1, dissent: 2, evidence: 3 }

/// The map as a tree: the claim at the root, each node under the node its edge points to (an argument under
/// the claim, evidence under its argument), proofs before dissents. A node is placed once, at its first edge
/// reached from the root; nodes no edge reaches from the root are left out, and so are cycles.
export function argumentTree(map: ArgumentMap): TreeItem | null {
  const root = map.nodes.find((node) => node.kind === 'claim')
  if (!root) return null
  const byId = new Map(map.nodes.map((node) => [node.id, node]))
  const placed = new Set<string>([root.id])
  const grow = (node: ArgumentNode, relation: Relation | null, level: number): TreeItem => {
    const children: { child: ArgumentNode; relation: Relation }[] = []
    for (const edge of map.edges) {
      const child = byId.get(edge.from)
      if (edge.to !== node.id || !child || placed.has(child.id)) continue
      placed.add(child.id)
      children.push({ child, relation: edge.relation })
    }
    children.sort((a, b) => KIND_ORDER[a.child.kind] - KIND_ORDER[b.child.kind])
    return {
      node,
      relation,
      level,
      children: children.map((each) => grow(each.child, each.relation, level + 1)),
    }
  }
  return grow(root, null, 1)
}

/// The items a reader can reach: every item whose ancestors are all expanded, in reading order, each with
/// its parent's id.
export function visibleItems(
  root: TreeItem,
  expanded: ReadonlySet<string>,
): { item: TreeItem; parent: string | null }[] {
  const out: { item: TreeItem; parent: string | null }[] = []
  const walk = (item: TreeItem, parent: string | null): void => {
    out.push({ item, parent })
    if (expanded.has(item.node.id)) for (const child of item.children) walk(child, item.node.id)
  }
  walk(root, null)
  return out
}

/// Every item with children, expanded: the map opens fully.
export function allExpanded(root: TreeItem): Set<string> {
  const ids = new Set<string>()
  const walk = (item: TreeItem): void => {
    if (item.children.length > 0) ids.add(item.node.id)
    item.children.forEach(walk)
  }
  walk(root)
  return ids
}

/// Where the focus goes and what opens or closes for a key pressed on item `focus`, as the WAI-ARIA tree
/// pattern has it: Up and Down move through the visible items, Right opens an item or enters it, Left closes
/// it or goes to its parent, Home and End go to the first and last. Null for any other key.
export function treeKey(
  root: TreeItem,
  expanded: ReadonlySet<string>,
  focus: string,
  key: string,
): { focus: string; expanded: Set<string> } | null {
  const items = visibleItems(root, expanded)
  const index = items.findIndex((entry) => entry.item.node.id === focus)
  const at = items[index]
  if (!at) return null
  const next = new Set(expanded)
  const move = (to: number): { focus: string; expanded: Set<string> } => ({
    focus: (items[Math.min(Math.max(to, 0), items.length - 1)] ?? at).item.node.id,
    expanded: next,
  })
  const open = expanded.has(focus)
  const hasChildren = at.item.children.length > 0
  switch (key) {
    case 'ArrowDown':
      return move(index + 1)
    case 'ArrowUp':
      return move(index - 1)
    case 'Home':
      return move(0)
    case 'End':
      return move(items.length - 1)
    case 'ArrowRight':
      if (!hasChildren) return move(index)
      if (!open) {
        next.add(focus)
        return move(index)
      }
      return move(index + 1)
    case 'ArrowLeft':
      if (hasChildren && open) {
        next.delete(focus)
        return move(index)
      }
      return { focus: at.parent ?? focus, expanded: next }
    default:
      return null
  }
}
