import { safeStorage } from 'electron'
import { fileSecretBox, NO_KEYCHAIN, refusingSecretBox, type SecretBox } from '../engine/base/secrets'

/// API keys sealed by the system's keychain through Electron's `safeStorage` (Keychain on macOS, DPAPI on
/// Windows, the Secret Service or KWallet on Linux). Where the system offers none (or only Linux's plain-text
/// fallback), saving a key is refused in words rather than sealed with a key file beside the keys; keys sealed
/// that way by earlier versions still open.
export function keychainSecretBox(dataDir: string): SecretBox {
  const weak = process.platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text'
  if (!safeStorage.isEncryptionAvailable() || weak)
    return refusingSecretBox(fileSecretBox(dataDir), NO_KEYCHAIN)
  return {
    refusal: null,
    encrypt: (plain) => safeStorage.encryptString(plain),
    decrypt: (sealed) => safeStorage.decryptString(sealed),
  }
}
