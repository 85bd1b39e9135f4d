import { useMemo, useRef, useState, type JSX, type KeyboardEvent } from 'react'
import type { Citation } from '../../../../shared/schemas'
import { stanceWords } from '../../../../shared/citations'
import { counted } from '../../../../shared/counted'
import { withoutInlineMarks } from '../../../../shared/markdown'
import { OpenLinkDialog, SourceLink, sourceName } from './sources'
import { allExpanded, argumentTree, treeKey, visibleItems, type ArgumentMap, type TreeItem } from './tree'

/// How each kind of node reads: a colour (the CSS class), an icon and a word, so that none depends on colour.
const KINDS: Record<TreeItem['node']['kind'], { icon: string; label: string }> = {
  claim: { icon: '◆', label: 'Claim' },
  proof: { icon: '✓', label: 'Proof' },
  dissent: { icon: '✗', label: 'Dissent' },
  evidence: { icon: '❝', label: 'Evidence' },
}

/// The argument map as a tree the keyboard can walk (arrow keys, Home, End; Enter on evidence asks to open its
/// source, which the item names): one tab stop however long the map, its sources' buttons being for the mouse. The claim at the root, proofs and dissents under it with the relation of each edge, and the
/// evidence with its source under each argument.
export function ArgumentMapTree({ map }: { map: ArgumentMap }): JSX.Element {
  const root = useMemo(() => argumentTree(map), [map])
  const [expanded, setExpanded] = useState(() => (root ? allExpanded(root) : new Set<string>()))
  const [focus, setFocus] = useState(root?.node.id ?? '')
  const [opening, setOpening] = useState<Citation | null>(null)
  const items = useRef(new Map<string, HTMLLIElement>())
  if (!root) return <p className="muted">The map has no claim to start from.</p>

  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>): void => {
    if (event.target !== items.current.get(focus)) return
    if (event.key === 'Enter') {
      const node = visibleItems(root, expanded).find((entry) => entry.item.node.id === focus)?.item.node
      const source = node?.kind === 'evidence' ? node.sources[0] : undefined
      if (source) {
        event.preventDefault()
        setOpening(source)
      }
      return
    }
    const next = treeKey(root, expanded, focus, event.key)
    if (!next) return
    event.preventDefault()
    setExpanded(next.expanded)
    setFocus(next.focus)
    items.current.get(next.focus)?.focus()
  }

  const render = (item: TreeItem): JSX.Element => {
    const { node } = item
    const kind = KINDS[node.kind]
    const open = expanded.has(node.id)
    const source = node.kind === 'evidence' ? node.sources[0] : undefined
    // The claim is the writer's Markdown, read without its marks; evidence is quoted verbatim.
    const text = node.kind === 'claim' ? withoutInlineMarks(node.text) : node.text
    // How the evidence bears on the claim: a verified quote may still not settle it.
    const stance = source ? stanceWords(source.stance) : null
    return (
      <li
        key={node.id}
        role="treeitem"
        aria-level={item.level}
        aria-expanded={item.children.length > 0 ? open : undefined}
        aria-selected={focus === node.id}
        aria-label={`${item.relation ? `${item.relation}: ` : ''}${kind.label}: ${text}${source ? `. Source: ${sourceName(source)}` : ''}${stance ? `, ${stance}` : ''}`}
        aria-keyshortcuts={source ? 'Enter' : undefined}
        tabIndex={focus === node.id ? 0 : -1}
        className={`map-item map-${node.kind}`}
        ref={(element) => {
          if (element) items.current.set(node.id, element)
          else items.current.delete(node.id)
        }}
        onFocus={(event) => {
          if (event.target === event.currentTarget) setFocus(node.id)
        }}
      >
        <div className="map-node">
          {item.relation && (
            <span className={`map-edge map-edge-${item.relation}`}>
              <span aria-hidden="true">{item.relation === 'attacks' ? '⤫' : '↳'}</span> {item.relation}
            </span>
          )}
          <span className={`map-kind map-kind-${node.kind}`}>
            <span aria-hidden="true">{kind.icon}</span> {kind.label}
          </span>
          {source ? (
            <span className="map-evidence">
              <q className="map-text">{text}</q>
              <span className="map-source">
                <SourceLink citation={source} onOpen={setOpening} quote={false} tabStop={false} />
              </span>
              {stance && <span className="muted map-stance"> · {stance}</span>}
            </span>
          ) : (
            <span className="map-text">{text}</span>
          )}
          {node.kind !== 'evidence' && node.sources.length > 0 && (
            <span className="muted map-count">{counted(node.sources.length, 'source')}</span>
          )}
        </div>
        {item.children.length > 0 && open && (
          <ul role="group">{item.children.map((child) => render(child))}</ul>
        )}
      </li>
    )
  }

  return (
    <>
      <ul className="argument-map" role="tree" aria-label="Argument map" onKeyDown={onKeyDown}>
        {render(root)}
      </ul>
      {opening && <OpenLinkDialog url={opening.url} onClose={() => setOpening(null)} />}
    </>
  )
}
