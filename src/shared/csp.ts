/// The page's Content-Security-Policy, the same in the desktop app and in browser mode. Scripts only from the
/// app itself (plus WebAssembly for the spelling checker); styles may be inline because CodeMirror injects its
/// theme as style elements; the page talks to nothing but its own origin.
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

/// The same policy for a `<meta>` element of the built page, which holds it wherever it is opened from (the
/// header comes from app:// in the desktop app and from the server in browser mode): `frame-ancestors` is
/// ignored there, and browsers complain about it.
export const META_CONTENT_SECURITY_POLICY = CONTENT_SECURITY_POLICY.split('; ')
  .filter((directive) => !directive.startsWith('frame-ancestors'))
  .join('; ')
