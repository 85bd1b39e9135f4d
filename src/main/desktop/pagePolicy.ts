import { CONTENT_SECURITY_POLICY } from '../../shared/csp'

/// The Content-Security-Policy the window enforces. In development it is relaxed just enough for Vite: its HMR
/// client talks to the dev server over a WebSocket, and React Refresh installs itself with an inline script.
export function pagePolicy(devServerUrl: string | undefined): string {
  if (!devServerUrl) return CONTENT_SECURITY_POLICY
  const server = new URL(devServerUrl)
  const socket = `${server.protocol === 'https:' ? 'wss' : 'ws'}://${server.host}`
  return CONTENT_SECURITY_POLICY.split('; ')
    .map((directive) => {
      if (directive.startsWith('script-src ')) return `${directive} 'unsafe-inline'`
      if (directive.startsWith('connect-src ')) return `${directive} ${socket}`
      return directive
    })
    .join('; ')
}
