// The page's text colours against its backgrounds, light and dark, as styles.css and the vocabulary's style
// sheet (stageStyles.ts, every stage's and verdict's colour) define them: each pair must keep WCAG AA's 4.5:1
// for text.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { stageStyles } from '../../src/renderer/src/stageStyles'
import { TERMS } from '../../src/shared/vocabulary'

const CSS = `${readFileSync(new URL('../../src/renderer/src/styles.css', import.meta.url), 'utf8')}\n${stageStyles()}`
const TEXT = [...['text', 'muted', 'quote', 'link', 'problem'], ...TERMS]
const BACKGROUNDS = ['paper', 'bar', 'raised']

/// The colour variables of the light scheme, or of the dark one laid over it.
function palette(dark: boolean): Map<string, string> {
  const colours = new Map<string, string>()
  const blocks = CSS.split(/(?=@media|^:root)/m)
  for (const block of blocks) {
    const isDark = block.startsWith('@media (prefers-color-scheme: dark)')
    if (!block.startsWith(':root') && !isDark) continue
    if (isDark && !dark) continue
    for (const [, name, value] of block.matchAll(/--fd-([\w-]+):\s*(#[0-9a-f]{6})\s*;/gi))
      colours.set(name as string, value as string)
  }
  return colours
}

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  })
  return 0.2126 * (r as number) + 0.7152 * (g as number) + 0.0722 * (b as number)
}

const contrast = (a: string, b: string): number => {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x)
  return ((light as number) + 0.05) / ((dark as number) + 0.05)
}

describe('colour contrast', () => {
  for (const dark of [false, true]) {
    it(`every text colour is at least 4.5:1 on every background (${dark ? 'dark' : 'light'})`, () => {
      const colours = palette(dark)
      const low: string[] = []
      for (const text of TEXT)
        for (const background of BACKGROUNDS) {
          const ratio = contrast(colours.get(text) ?? '', colours.get(background) ?? '')
          if (!(ratio >= 4.5)) low.push(`${text} on ${background}: ${ratio.toFixed(2)}`)
        }
      expect(low).toEqual([])
    })

    it(`the text colour keeps 4.5:1 on the selection, where the lint list's selected finding is (${dark ? 'dark' : 'light'})`, () => {
      const colours = palette(dark)
      expect(contrast(colours.get('text') ?? '', colours.get('selection') ?? '')).toBeGreaterThanOrEqual(4.5)
    })
  }
})
