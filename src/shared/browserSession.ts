import { z } from 'zod'

/// `factdesk web`'s browser session is in two halves: an HttpOnly cookie, which the browser also sends to every
/// other server on the same host (cookies ignore the port), and a key that only the page holds, in storage of its
/// own origin (scheme, host and port), sent in this header with every request. The cookie alone authorizes
/// nothing. A cross-site form cannot send a header, and a cross-site script would need a CORS preflight the
/// server never grants.
export const PAGE_KEY_HEADER = 'X-Factdesk-Page-Key'

/// Where the page keeps its half of the session: storage of its own origin, which every tab of it shares and
/// which outlives a reload, while no other origin (another port of the same host included) can read it.
export const PAGE_KEY_ITEM = 'factdesk.pageKey'

/// The answer of `POST /auth/session` (the one-time link traded for a session): the page's half of it.
export const OpenedSession = z.strictObject({ pageKey: z.string().min(1) })
export type OpenedSession = z.infer<typeof OpenedSession>
