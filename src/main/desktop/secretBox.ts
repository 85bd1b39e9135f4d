import { safeStorage } from 'electron'
import { fileSecretBox, type SecretBox } from '../engine/secrets'

/// API keys sealed by the system's keychain through Electron's `safeStorage` (Keychain on macOS, DPAPI on
/// Windows, the Secret Service or KWallet on Linux). Where the system offers none (or only Linux's plain-text
/// fallback), the data folder's key file does the sealing instead, as in headless mode.
export function keychainSecretBox(dataDir: string): SecretBox {
  const weak = process.platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text'
  if (!safeStorage.isEncryptionAvailable() || weak) return fileSecretBox(dataDir)
  return {
    encrypt: (plain) => safeStorage.encryptString(plain),
    decrypt: (sealed) => safeStorage.decryptString(sealed),
  }
}
