// The form of a sentence, which decides some sentences whatever their words:
// - a question or an instruction is not a claim;
// - nor is the writer speaking of themselves: their view, feeling or advice, or what they cannot do ("I
//   think...", "I recommend...", "As an AI language model, I do not have access...");
// - in prose, a plain statement is: it asserts something with none of the marks of talk (first person,
//   fillers, discourse openers), of intent or obligation, or of hedging and strong opinion. In
//   writers' prose nearly every such sentence states a fact someone could check; in talk (a debate) many
//   are asides, and there the learned model alone decides.

/// What the form of a sentence says of it.
export type SentenceForm = 'question-or-instruction' | 'about-the-writer' | 'plain-statement' | 'other'

/// How a document is written: as talk (a transcript, an interview, a chat) or as prose.
export type Register = 'talk' | 'prose'

const FIRST_PERSON = /\b(?:I|me|my|mine|myself|we|us|our|ours|ourselves)\b|\b(?:We|Us|Our|Let's)\b/
// "I", perhaps with an auxiliary or an adverb, then a verb of view, feeling or advice, or of what the writer
// lacks or cannot do.
const ABOUT_THE_WRITER =
  /\bI(?:['’]m|['’]d| am| do| would| can| could| must| also| really| personally| strongly| truly)?(?: not|n['’]t)?(?: (?:think|believe|feel|hope|wish|recommend|suggest|advise|guess|suppose|doubt|apologi[sz]e|regret|prefer|love|hate|like to|want to|would like|sorry|afraid|unsure|not sure|unable|not able|cannot|can['’]t|have no|do not have|don['’]t have|do not know|don['’]t know))\b/
const SECOND_PERSON = /\b(?:you|your|yours|yourself|yourselves)\b/i
const INTENT =
  /\b(?:will|would|should|must|ought|shall|gonna|won't|wouldn't|shouldn't)\b|\b(?:going|need|needs|have|has) to\b/i
const HEDGED =
  /\b(?:perhaps|maybe|probably|possibly|might|seems?|seemed|apparently|arguably)\b|\bit(?: is|'s|’s) (?:difficult|hard|important|essential|possible|likely|unlikely|unclear|worth|crucial)\b/i
const STRONG_OPINION =
  /\b(?:terrible|wonderful|horrible|awful|outrage(?:ous)?|disgrace(?:ful)?|ridiculous|shame(?:ful)?|amazing|fantastic|tremendous|pathetic|incredible)\b/i
const SPOKEN =
  /\b(?:uh|um|yeah|okay|ok)\b|--|\b(?:it|that|there|here|what|he|she|they)['’](?:s|re|ve|ll|d)\b/i
const OPENER = /^(?:and|but|so|well|now|yes|no|oh|sure|look|then|also|secondly|thirdly|finally|that)\b/i
const INSTRUCTION =
  /^(?:let|let's|please|consider|imagine|remember|make|take|give|tell|ask|go|come|find|check|try|select|compare|determine|use|keep|note|read|see|start|run|click|choose|avoid|add|visit|contact|install|open|follow|enter|press|mix|stir|pour|place|put|set|get)$/i
// A first word that is no verb although a determiner may follow it ("Today the...", "Both the...").
const NOT_A_VERB =
  /^(?:today|yesterday|tomorrow|now|then|meanwhile|here|there|also|still|thus|hence|instead|both|all|half|once|twice|since|as|at|by|for|from|in|into|of|on|to|with|without|under|over|after|before|during|like|unlike|about|across|against|among|around|because|despite|through|throughout|toward|towards|until|upon|via|within|is|are|was|were|has|have|had|does|did|can|could|may|might|will|would|should|must|such|not|only|even|just|perhaps|what|which|who|whose|when|where|why|how|if|while|although|though|once|unless|whether|so|but|and|or|nor|yet)$/i
const AUXILIARY = /^(?:is|are|was|were|has|have|had|can|could|will|would|may|might|must|should|does|did)$/i
const DETERMINER = /^(?:the|a|an|your|each|every|this|these|those|some|any|all|my|our|their|its)$/i
const WORD = /[\p{L}\p{N}]+(?:['’]\p{L}+)?/gu
const MIN_WORDS = 6

/// Whether a sentence is a question or an instruction, a plain statement, or neither (see above).
export function sentenceForm(sentence: string): SentenceForm {
  const text = sentence.trim().replace(/^["“'‘(*_\s]+/, '')
  const words = text.match(WORD) ?? []
  if (/\?["”')\]]*$/.test(text) || isInstruction(text)) return 'question-or-instruction'
  if (ABOUT_THE_WRITER.test(text)) return 'about-the-writer'
  if (words.length < MIN_WORDS || /[:;]["”')\]]*$|\.\.\.$|…$/.test(text)) return 'other'
  // "You" is let pass: in prose it is mostly the generic one ("if you heat it, you get..."), and prose is
  // where plain statements count.
  const plain =
    !FIRST_PERSON.test(text) &&
    !SPOKEN.test(text) &&
    !OPENER.test(text) &&
    !INTENT.test(text) &&
    !HEDGED.test(text) &&
    !STRONG_OPINION.test(text)
  return plain ? 'plain-statement' : 'other'
}

/// Talk when at least half of the sentences bear its marks (I, we, you, fillers, contractions, openers):
/// there plain statements are not presumed to be claims, and the words alone decide.
export function documentRegister(sentences: string[]): Register {
  let talk = 0
  for (const sentence of sentences) if (hasMarksOfTalk(sentence.trim())) talk++
  return talk * 2 >= sentences.length && talk > 0 ? 'talk' : 'prose'
}

function hasMarksOfTalk(text: string): boolean {
  return FIRST_PERSON.test(text) || SECOND_PERSON.test(text) || SPOKEN.test(text) || OPENER.test(text)
}

/// An imperative: a known instruction verb first, or a bare word followed by a determiner ("Shortlist a
/// few"), at the start or after an opening clause ("To bake bread, mix the flour...").
function isInstruction(text: string): boolean {
  if (startsWithImperative(text)) return true
  const opening = /^(?:to|when|if|before|after|once|for)\b[^,.;:]{0,80},\s*/i.exec(text)
  return opening !== null && startsWithImperative(text.slice(opening[0].length))
}

function startsWithImperative(text: string): boolean {
  const [first, second, ...rest] = text.match(WORD)?.slice(0, 4) ?? []
  if (first === undefined || !/^\p{L}/u.test(first)) return false
  // "Set theory is a branch of mathematics": a verb soon after makes the first words a subject.
  if ([second, ...rest].some((word) => word !== undefined && AUXILIARY.test(word))) return false
  if (INSTRUCTION.test(first)) return true
  if (second === undefined || !DETERMINER.test(second) || NOT_A_VERB.test(first)) return false
  return (
    /^\p{L}\p{Ll}+$/u.test(first) &&
    !/(?:s|ed|ing|ly)$/.test(first) &&
    !/[,;:]/.test(text.slice(0, text.indexOf(second)))
  )
}
