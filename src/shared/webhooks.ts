/// The receiver's side of a webhook delivery (service-api.md, section 6): checks the `X-SVC-Signature` header.
/// Web Crypto only, so that it runs in Node, browsers, Deno and workers alike.

/// The body of a delivery (api-decisions.md, "Webhooks"). Every retry of an event sends the same body.
export interface WebhookEvent {
  /// `evt_…`: the same on every retry (and in `X-SVC-Delivery`); receivers de-duplicate on it.
  id: string
  type: 'check.completed' | 'check.failed'
  createdAt: string
  data: {
    checkId: string
    status: 'completed' | 'failed'
    claimCount: number
    /// How many consensus entries reached each verdict, all tiers together (the report's `summary.verdicts`).
    verdicts: Record<string, number>
    completedAt: string | null
  }
}

/// How far the signed timestamp may be from the receiver's clock, in seconds.
const WEBHOOK_TOLERANCE_SECONDS = 300

const encoder = new TextEncoder()

/// `t` and the `v1` values of a signature header, or null when it is not of the form `t=<digits>,v1=<hex>…`.
export function parseSignatureHeader(header: string): { t: string; v1: string[] } | null {
  let t: string | null = null
  const v1: string[] = []
  for (const part of header.split(',')) {
    const equals = part.indexOf('=')
    if (equals < 0) continue
    const key = part.slice(0, equals).trim()
    const value = part.slice(equals + 1).trim()
    if (key === 't') {
      if (t !== null || !/^\d{1,15}$/.test(value)) return null
      t = value
    } else if (key === 'v1') {
      v1.push(value)
    }
  }
  return t === null || v1.length === 0 ? null : { t, v1 }
}

const hexBytes = (hex: string): Uint8Array<ArrayBuffer> | null => {
  if (!/^(?:[0-9a-f]{2})+$/.test(hex)) return null // lowercase, as signed: the spec compares the strings
  const bytes = new Uint8Array(hex.length / 2)
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16)
  return bytes
}

/// Verifies a delivery exactly as the specification's four steps say:
/// 1. split the header into `t` and the `v1` values;
/// 2. compute HMAC-SHA256 over `<t>.<raw body>` with each signing secret;
/// 3. at least one `v1` must equal it, compared in constant time (Web Crypto's `verify`);
/// 4. reject when `t` differs from `now` by more than 300 seconds.
/// `rawBody` is the body exactly as received (before any JSON parsing); `secrets` are the signing secrets to
/// accept (during the 24 hours after a rotation, the new and the old one); `now` defaults to the current time.
/// Resolves to true only for an authentic, fresh delivery.
export async function verifyWebhook(
  rawBody: string | Uint8Array,
  signatureHeader: string | null | undefined,
  secrets: string | readonly string[],
  now: Date | number = Date.now(),
): Promise<boolean> {
  if (typeof signatureHeader !== 'string') return false
  // 1. t and the v1 values.
  const parsed = parseSignatureHeader(signatureHeader)
  if (!parsed) return false
  const body = typeof rawBody === 'string' ? encoder.encode(rawBody) : rawBody
  const prefix = encoder.encode(`${parsed.t}.`)
  const signed = new Uint8Array(prefix.length + body.length)
  signed.set(prefix)
  signed.set(body, prefix.length)
  const signatures = parsed.v1.flatMap((value) => {
    const bytes = hexBytes(value)
    return bytes && bytes.length === 32 ? [bytes] : []
  })
  // 2. and 3. HMAC-SHA256 with each secret; Web Crypto's verify compares in constant time.
  let matched = false
  for (const secret of typeof secrets === 'string' ? [secrets] : secrets) {
    if (secret === '') continue
    const key = await globalThis.crypto.subtle.importKey(
      'raw',
      encoder.encode(secret),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['verify'],
    )
    for (const signature of signatures) {
      if (await globalThis.crypto.subtle.verify('HMAC', key, signature, signed)) matched = true
    }
  }
  if (!matched) return false
  // 4. The timestamp must be within the tolerance of the receiver's clock.
  const nowSeconds = (typeof now === 'number' ? now : now.getTime()) / 1000
  return Math.abs(nowSeconds - Number(parsed.t)) <= WEBHOOK_TOLERANCE_SECONDS
}
