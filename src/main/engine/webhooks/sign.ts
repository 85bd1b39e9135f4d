import { createHmac } from 'node:crypto'

/// The `X-SVC-Signature` header for `body` sent at unix second `t`: `t=<t>,v1=<hex>` with one `v1` per secret,
/// in the order given (the current secret first, then rotated-out ones still valid). Each `v1` is the hex
/// HMAC-SHA256 of `<t>.<body>` keyed with the secret's UTF-8 bytes.
export function signatureHeader(body: string, secrets: readonly string[], t: number): string {
  const signed = `${t}.${body}`
  return [
    `t=${t}`,
    ...secrets.map((secret) => `v1=${createHmac('sha256', secret).update(signed).digest('hex')}`),
  ].join(',')
}
