// The slips small models make in answers that otherwise follow the schema (issue #31), each as a change to an
// exact answer: a fake model that answers exactly makes them when its behaviour is wrapped by `slipping`. Tests
// and the robustness bench (bench/robustness.ts) share them, so a slip the engine is tested against is the one it
// is measured against.
import { requestData, type Behaviour, type ClaimToResolve, type RecordedRequest } from './fakeOpenAI'

/// One kind of slip: what it does to an answer's object (the request tells which answer it is and what it was
/// shown), to a resolver's statement, or to the answer's text as sent.
export interface Slip {
  answer?: (exact: unknown, request: RecordedRequest) => unknown
  resolve?: (exact: Resolution, claim: ClaimToResolve) => Resolution
  text?: (exact: string) => string
}

/// What a resolver answers for one claim.
export interface Resolution {
  statement: string
  parts?: string[] | null
}

/// `value` with every member named `name`, at any depth, replaced by `change` of it.
function withMembers(value: unknown, name: string, change: (member: unknown) => unknown): unknown {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk)
    if (typeof node !== 'object' || node === null) return node
    return Object.fromEntries(
      Object.entries(node).map(([key, member]) => [key, key === name ? change(member) : walk(member)]),
    )
  }
  return walk(value)
}

/// An id ("P3", "R1") as a slipping model writes it, in one of the forms given: with several, each id of an
/// answer in the next form, starting from one its claim chooses, so that every form is written and the same
/// answer is always written alike. Strings that are no such id are left as they are.
function ids(prefix: string, forms: ReadonlyArray<(n: string) => string>, members: readonly string[]): Slip {
  const id = new RegExp(`^${prefix}(\\d+)$`)
  return {
    answer: (exact, request) => {
      const claim = String(requestData(request).claim ?? '')
      let at = [...claim].reduce((sum, char) => sum + (char.codePointAt(0) ?? 0), 0)
      const written = (value: unknown): unknown => {
        const number = typeof value === 'string' ? id.exec(value)?.[1] : undefined
        return number === undefined ? value : (forms[at++ % forms.length] as (n: string) => string)(number)
      }
      return members.reduce<unknown>(
        (answer, name) =>
          // A list of ids (the evidence choice's, the search step's), or one (a citation's passage).
          withMembers(answer, name, (member) =>
            Array.isArray(member) ? member.map(written) : written(member),
          ),
        exact,
      )
    },
  }
}

/// A change to every quote a vote or decision cites (the members `citations[].quote`).
function quotes(change: (quote: string) => string): Slip {
  return {
    answer: (exact) =>
      withMembers(exact, 'citations', (citations) =>
        Array.isArray(citations)
          ? citations.map((citation: { quote?: unknown }) =>
              typeof citation.quote === 'string' ? { ...citation, quote: change(citation.quote) } : citation,
            )
          : citations,
      ),
  }
}

/// A change to every string member named in `names`.
function strings(names: readonly string[], change: (value: string) => string): Slip {
  return {
    answer: (exact) =>
      names.reduce<unknown>(
        (answer, name) =>
          withMembers(answer, name, (member) => (typeof member === 'string' ? change(member) : member)),
        exact,
      ),
  }
}

const PASSAGE_FORMS = {
  p1: (n: string) => `p${n}`,
  '[P1]': (n: string) => `[P${n}]`,
  'Passage 1': (n: string) => `Passage ${n}`,
  'P1.': (n: string) => `P${n}.`,
}
const RESULT_FORMS = { r1: (n: string) => `r${n}`, 'Result 1': (n: string) => `Result ${n}` }
/// Where passages and results are named: the evidence choice's list, a citation's passage, the search step's
/// picks.
const PASSAGE_MEMBERS = ['passages', 'passage']
const RESULT_MEMBERS = ['read']

const passageIds = (...forms: Array<keyof typeof PASSAGE_FORMS>): Slip =>
  ids(
    'P',
    forms.map((form) => PASSAGE_FORMS[form]),
    PASSAGE_MEMBERS,
  )
const resultIds = (...forms: Array<keyof typeof RESULT_FORMS>): Slip =>
  ids(
    'R',
    forms.map((form) => RESULT_FORMS[form]),
    RESULT_MEMBERS,
  )

/// A stance entry that names its quote by the quote's words instead of its id (Q1…), read from the request.
const quotesByWords: Slip = {
  answer: (exact, request) => {
    const shown: Array<{ id: string; quote: string }> = requestData(request).quotes ?? []
    return withMembers(exact, 'stances', (stances) =>
      Array.isArray(stances)
        ? stances.map((entry: { quote?: unknown }) => ({
            ...entry,
            quote: shown.find((quote) => quote.id === entry.quote)?.quote ?? entry.quote,
          }))
        : stances,
    )
  },
}

/// What small models write that the engine must read as if written exactly, by kind (one kind of slip each).
export const SLIPS = {
  'passage ids written p1': passageIds('p1'),
  'passage ids written [P1]': passageIds('[P1]'),
  'passage ids written Passage 1': passageIds('Passage 1'),
  'passage ids written P1.': passageIds('P1.'),
  'result ids written r1': resultIds('r1'),
  'result ids written Result 1': resultIds('Result 1'),
  'stance entries naming the quote by its words': quotesByWords,
  'quotes with curly apostrophes and quotation marks': quotes((quote) =>
    quote
      .replace(/(\w)'/g, '$1’')
      .replace(/'/g, '‘')
      .replace(/"(?=\w)/g, '“')
      .replace(/"/g, '”'),
  ),
  'quotes with a doubled space': quotes((quote) => quote.replace(' ', '  ')),
  'quotes without their final full stop': quotes((quote) => quote.replace(/\.$/, '')),
  'resolver answers unrelated to the claim': {
    resolve: () => ({ statement: 'Rewrite the claim as one statement.', parts: null }),
  },
  'JSON in code fences': { text: (text) => `Here is the JSON:\n\`\`\`json\n${text}\n\`\`\`` },
  'verdicts and stances capitalised': strings(
    ['verdict', 'stance'],
    (value) => value.charAt(0).toUpperCase() + value.slice(1),
  ),
  'confidence in percent': {
    answer: (exact) =>
      withMembers(exact, 'confidence', (value) =>
        typeof value === 'number' ? Math.round(value * 100) : value,
      ),
  },
} satisfies Record<string, Slip>

export type SlipKind = keyof typeof SLIPS

/// Every kind at once: ids written in each of their forms.
export const ALL_SLIPS: readonly Slip[] = [
  passageIds('p1', '[P1]', 'Passage 1', 'P1.'),
  resultIds('r1', 'Result 1'),
  ...Object.entries(SLIPS)
    .filter(([kind]) => !/ ids written /.test(kind))
    .map(([, slip]) => slip),
]

/// `exact` answering with `slips`: each answer, resolution and text as `exact` gives it, changed by every slip
/// in turn. The slips are made on every answer, a request asked again included (a model that slips keeps
/// slipping).
export function slipping(exact: Behaviour, slips: readonly Slip[]): Behaviour {
  const { answer, resolve, written } = exact
  return {
    ...exact,
    ...(answer && {
      answer: (request: RecordedRequest) =>
        slips.reduce(
          (object, slip) => (slip.answer ? slip.answer(object, request) : object),
          answer(request),
        ),
    }),
    resolve: (claim: ClaimToResolve) =>
      slips.reduce<Resolution>(
        (resolved, slip) => (slip.resolve ? slip.resolve(resolved, claim) : resolved),
        resolve?.(claim) ?? { statement: claim.claim },
      ),
    written: (text: string) =>
      slips.reduce((sent, slip) => (slip.text ? slip.text(sent) : sent), written ? written(text) : text),
  }
}
