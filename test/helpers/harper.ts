// Harper as t1's worker and the editor's lint worker run it: the slim binary, Factdesk's lint configuration,
// American English until told otherwise. For tests that lint with the real checker in the test's own thread.
import { Dialect, LocalLinter } from 'harper.js'
import { slimBinary } from 'harper.js/slimBinary'
import { LINT_CONFIG } from '../../src/shared/harper'

/// A linter set up and configured; `dispose` it when done.
export async function harperLinter(): Promise<LocalLinter> {
  const linter = new LocalLinter({ binary: slimBinary, dialect: Dialect.American })
  await linter.setup()
  await linter.setLintConfig(LINT_CONFIG)
  return linter
}
