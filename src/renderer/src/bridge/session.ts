/// The parts of the browser window the HTTP bridge uses; tests hand in their own.
export type Page = Pick<Window, 'fetch' | 'location' | 'history'>

/// Browser mode signs in like a notebook server: `factdesk web` prints a link whose fragment holds a one-time
/// token (a fragment is never sent in a request, so the token reaches no server log). The page takes it out of
/// the address bar and trades it for an HttpOnly session cookie; a reload or a bookmark then works on the
/// cookie alone.
export async function openSession(page: Page): Promise<void> {
  const fragment = new URLSearchParams(page.location.hash.slice(1))
  const token = fragment.get('token')
  if (token === null) return
  fragment.delete('token')
  const rest = fragment.size > 0 ? `#${fragment}` : ''
  page.history.replaceState(page.history.state, '', `${page.location.pathname}${page.location.search}${rest}`)
  // A refused token (a link used before) is not an error here: an earlier session may still hold, and the
  // first call of the API says whether it does.
  await page.fetch('/auth/session', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ token }),
  })
}
