import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { FIND_CLAIMS } from '../../src/main/engine/claims'
import { FindClaims } from '../../src/shared/schemas'
// The figures themselves are the training script's: test/eval/shipped.test.ts trains the model again.
import { FEWER_PRECISION, MORE_RECALL } from '../../eval/training/checkworthiness'

const readme = readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8')
const LABELS: Record<FindClaims, string> = { fewer: 'Fewer', balanced: 'Balanced', more: 'More' }

describe('the README’s "Find claims" table', () => {
  it('states each setting’s threshold, precision and recall as the shipped model has them', () => {
    for (const setting of FindClaims.options) {
      const { threshold, precision, recall } = FIND_CLAIMS[setting]
      const percent = (share: number) => `${Math.round(share * 100)} %`
      expect(readme).toMatch(
        new RegExp(
          `\\| ${LABELS[setting]} +\\| ${threshold.toFixed(2)} +\\| ${percent(precision)} +\\| ${percent(recall)} +\\|`,
        ),
      )
    }
  })

  it('orders the settings, each meeting what it promises', () => {
    const { fewer, balanced, more } = FIND_CLAIMS
    expect(fewer.threshold).toBeGreaterThan(balanced.threshold)
    expect(balanced.threshold).toBeGreaterThan(more.threshold)
    expect(fewer.precision).toBeGreaterThanOrEqual(FEWER_PRECISION)
    expect(more.recall).toBeGreaterThanOrEqual(MORE_RECALL)
  })
})
