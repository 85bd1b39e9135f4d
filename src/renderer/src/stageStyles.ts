import { TERMS, VOCABULARY, type Colour } from '../../shared/vocabulary'

/// The colours of every stage and verdict, light and dark, as a style sheet built from the vocabulary: a
/// variable `--fd-<name>` for each, and `--fd-stage` set on a claim's mark and badge (`fd-stage-<name>`) and on a
/// verdict's words (`verdict-<name>`, which take its colour). styles.css draws claims, badges and verdicts with
/// `--fd-stage`, so a new row of the vocabulary needs no new rule there.
export function stageStyles(): string {
  const variables = (scheme: keyof Colour): string =>
    TERMS.map((name) => `--fd-${name}: ${VOCABULARY[name].colour[scheme]};`).join(' ')
  return [
    `:root { ${variables('light')} }`,
    `@media (prefers-color-scheme: dark) { :root { ${variables('dark')} } }`,
    ...TERMS.map((name) => `.fd-stage-${name} { --fd-stage: var(--fd-${name}); }`),
    ...TERMS.map((name) => `.verdict-${name} { --fd-stage: var(--fd-${name}); color: var(--fd-stage); }`),
  ].join('\n')
}
