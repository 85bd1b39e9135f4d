// t1: spelling and grammar of each claim, by Harper.
export { SpellingChecker, type CheckResult, type Writing } from './checker'
export type { Finding } from './protocol'
export { t1Outcome, type CheckedClaim } from './outcome'
