import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { z } from 'zod'
import { Config, ModelConfig, VerifierConfig } from '../../src/shared/config'

const doc = readFileSync(join(import.meta.dirname, '../../docs/configuration.md'), 'utf8')

/// The schema under its wrappers (optional, nullable, default, prefault) and transforms (a pipe's input).
function unwrap(schema: z.core.$ZodType): z.core.$ZodType {
  const def = schema._zod.def as { type: string; innerType?: z.core.$ZodType; in?: z.core.$ZodType }
  if (def.innerType) return unwrap(def.innerType)
  if (def.type === 'pipe' && def.in) return unwrap(def.in)
  return schema
}

/// The dotted key of every leaf of `schema`; a model (or a list of them) inside it is one leaf, its own keys
/// apart.
function keysOf(schema: z.core.$ZodType, prefix = ''): string[] {
  const inner = unwrap(schema)
  const isModel = (candidate: z.core.$ZodType) =>
    prefix !== '' && (candidate === ModelConfig || candidate === VerifierConfig)
  if (isModel(inner)) return [prefix]
  const def = inner._zod.def as {
    type: string
    shape?: Record<string, z.core.$ZodType>
    element?: z.core.$ZodType
  }
  if (def.type === 'array' && def.element && isModel(unwrap(def.element))) return [prefix]
  if (def.type !== 'object' || !def.shape) return [prefix]
  return Object.entries(def.shape).flatMap(([key, value]) => keysOf(value, prefix ? `${prefix}.${key}` : key))
}

/// The rows of the table under `heading`: its first cell's key (in backticks) and its default cell.
function rows(heading: string): Map<string, string> {
  const section = doc.slice(doc.indexOf(`\n## ${heading}\n`)).split(/\n## /)[1] ?? ''
  const found = new Map<string, string>()
  for (const line of section.split('\n')) {
    const cells = line.split(/(?<!\\)\|/).map((cell) => cell.trim())
    const key = /^`([^`]+)`$/.exec(cells[1] ?? '')?.[1]
    if (key) found.set(key, cells[3] ?? '')
  }
  return found
}

/// The value at `path` of an object.
const at = (value: unknown, path: string): unknown =>
  path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], value)

describe('docs/configuration.md', () => {
  const keys = keysOf(Config)
  const table = rows('Keys')

  it('has a row for every key of the config schema, and none for a key it does not have', () => {
    expect(keys).toContain('limits.maxTextChars')
    expect(keys).toContain('models.panel')
    expect(keys).toContain('sources.never')
    expect(keys.filter((key) => !table.has(key))).toEqual([])
    expect([...table.keys()].filter((key) => !keys.includes(key))).toEqual([])
  })

  it('gives, where a default is written as code, the value the schema takes when the key is absent', () => {
    const defaults = Config.parse({})
    let compared = 0
    for (const [key, cell] of table) {
      const literal = /^`([^`]+)`$/.exec(cell)?.[1]
      if (literal === undefined) continue
      expect(at(defaults, key), key).toEqual(JSON.parse(literal))
      compared++
    }
    expect(compared).toBeGreaterThan(25)
  })

  it('has a row for every key of a model, the verifier’s kind included', () => {
    const modelKeys = [...new Set([...keysOf(ModelConfig), ...keysOf(VerifierConfig)])]
    expect(modelKeys).toContain('price.inputPerMTok')
    expect(modelKeys).toContain('kind')
    const modelTable = rows('A model')
    expect(modelKeys.filter((key) => !modelTable.has(key))).toEqual([])
    expect([...modelTable.keys()].filter((key) => !modelKeys.includes(key))).toEqual([])
  })
})

describe('the config examples of the README and docs/', () => {
  const root = join(import.meta.dirname, '../..')
  const pages = [
    'README.md',
    ...readdirSync(join(root, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `docs/${name}`),
  ]
  const top = new Set(Object.keys(Config.shape))
  const examples = pages.flatMap((page) =>
    [...readFileSync(join(root, page), 'utf8').matchAll(/```json\n([\s\S]*?)```/g)]
      .map((m) => JSON.parse(m[1] ?? '') as unknown)
      .filter((value): value is Record<string, unknown> => typeof value === 'object' && value !== null)
      // A config is a block whose members are all config members (a webhook body is not).
      .filter((value) => Object.keys(value).every((key) => top.has(key)))
      .map((value) => [page, value] as const),
  )

  it('are every one a valid config file', () => {
    expect(examples.map(([page]) => page)).toContain('README.md')
    expect(examples.length).toBeGreaterThanOrEqual(6)
    for (const [page, example] of examples) {
      const parsed = Config.safeParse(example)
      expect(parsed.success ? [] : parsed.error.issues, `${page}: ${JSON.stringify(example)}`).toEqual([])
    }
  })
})
