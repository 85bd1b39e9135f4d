import type { JSX } from 'react'
import { messageParts } from '../../../shared/findings'

/// A message that quotes words or commands in backticks (a spelling checker's, Ollama detection's), with the
/// quoted parts shown as code.
export function QuotedCode({ message }: { message: string }): JSX.Element {
  return (
    <>
      {messageParts(message).map((part, i) =>
        part.code ? <code key={i}>{part.text}</code> : <span key={i}>{part.text}</span>,
      )}
    </>
  )
}
