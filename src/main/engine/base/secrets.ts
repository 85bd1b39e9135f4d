import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto'
import { chmodSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ApiError } from '../../../shared/errors'

/// Encrypts secrets (API keys) before they are stored. The desktop app passes one backed by the system's
/// keychain (Electron's `safeStorage`); headless and browser mode use `fileSecretBox`.
export interface SecretBox {
  encrypt(plain: string): Buffer
  decrypt(sealed: Buffer): string
  /// Why `encrypt` refuses every secret here, for Settings to say before one is typed; null where they are kept.
  readonly refusal: SecretRefusal | null
}

/// Why secrets are not kept, in words: what is missing and what to do instead, for API keys (which an environment
/// variable can hold) and for the remote service's token (which nothing else can).
export interface SecretRefusal {
  keys: string
  token: string
}

const KEY_FILE = 'secret.key'
const IV_BYTES = 12
const TAG_BYTES = 16
const KEY_BYTES = 32

/// AES-256-GCM with a random key kept in `secret.key` in the data folder (created on first use, readable by
/// its owner only). A sealed secret is the IV, the authentication tag and the ciphertext.
export function fileSecretBox(dataDir: string): SecretBox {
  let loaded: Buffer | null = null
  return aesSecretBox(() => (loaded ??= readOrCreateKey(join(dataDir, KEY_FILE))))
}

/// AES-256-GCM with a key of 32 bytes given whole: a team server's, which every replica has (see
/// `teamSecretBox`). Sealed as `fileSecretBox` seals.
export function keySecretBox(key: Buffer): SecretBox {
  if (key.length !== KEY_BYTES) throw new Error(`A secret key is ${KEY_BYTES} bytes, not ${key.length}.`)
  return aesSecretBox(() => key)
}

/// A key of 32 bytes written as 64 hexadecimal digits (`openssl rand -hex 32`) or in base64
/// (`openssl rand -base64 32`); null when `text` is neither.
export function parseSecretKey(text: string): Buffer | null {
  const trimmed = text.trim()
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex')
  if (!/^[A-Za-z0-9+/_-]{43}={0,1}$/.test(trimmed)) return null
  const key = Buffer.from(trimmed, 'base64')
  return key.length === KEY_BYTES ? key : null
}

/// Names a key without revealing it: the first 16 hex digits of an HMAC keyed with it. Two replicas whose
/// fingerprints differ seal with different keys.
export function keyFingerprint(key: Buffer): string {
  return createHmac('sha256', key).update('factdesk secret key fingerprint').digest('hex').slice(0, 16)
}

function aesSecretBox(key: () => Buffer): SecretBox {
  return {
    refusal: null,
    encrypt(plain) {
      const iv = randomBytes(IV_BYTES)
      const cipher = createCipheriv('aes-256-gcm', key(), iv)
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
      return Buffer.concat([iv, cipher.getAuthTag(), body])
    },
    decrypt(sealed) {
      const decipher = createDecipheriv('aes-256-gcm', key(), sealed.subarray(0, IV_BYTES))
      decipher.setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES))
      return Buffer.concat([
        decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8')
    },
  }
}

/// What Settings says when a key or the token cannot be saved: no keychain to seal it with.
export const NO_KEYCHAIN: SecretRefusal = {
  keys:
    'This computer has no keychain Factdesk can keep keys in (on Linux: GNOME Keyring or KWallet), and keys are ' +
    'not kept without one. Set the key in an environment variable instead, and name it under "Environment ' +
    'variable" for a model, or as search.apiKeyEnv in the configuration file for a search provider.',
  token:
    'This computer has no keychain Factdesk can keep the token in (on Linux: GNOME Keyring or KWallet), so the ' +
    'token cannot be kept on this computer and checks run in this app. Test connection still tries a token you ' +
    'type here, without keeping it.',
}

/// Where the system has no keychain to seal keys with: saving a key is refused with `reason` rather than sealed
/// with a key file kept beside the keys (Settings refuses the token with its own words before it gets here). Keys
/// sealed earlier by `legacy` still open.
export function refusingSecretBox(legacy: SecretBox, reason: SecretRefusal): SecretBox {
  return {
    refusal: reason,
    encrypt() {
      throw new ApiError('unprocessable', reason.keys)
    },
    decrypt: (sealed) => legacy.decrypt(sealed),
  }
}

function readOrCreateKey(file: string): Buffer {
  try {
    const key = readFileSync(file)
    if (key.length === KEY_BYTES) return key
    throw new Error(`${file} is not a key of ${KEY_BYTES} bytes; remove it and enter the API keys again.`)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  const key = randomBytes(KEY_BYTES)
  // 'wx' fails if another process wrote the file meanwhile; then its key is the one to use.
  try {
    writeFileSync(file, key, { mode: 0o600, flag: 'wx' })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file)
    throw error
  }
  chmodSync(file, 0o600)
  return key
}
