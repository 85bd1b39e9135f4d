import { writeFileAtomic } from '../../../../src/main/engine/files/write'

// A child process for the crash test: writes ARGV[2] over and over, alternating two large texts, and says
// "writing" once it has started; the test kills it at some moment in the middle.
const [path = ''] = process.argv.slice(2)
const texts = ['a', 'b'].map((letter) => `${letter.repeat(4 * 1024 * 1024)}\n`)
let round = 0
for (;;) {
  const text = texts[round++ % 2] ?? ''
  const writing = writeFileAtomic(path, text)
  if (round === 1) process.stdout.write('writing\n')
  await writing
}
