import type { z } from 'zod'
import { ModelConfig } from '../../../shared/config'
import type { ModelInput, SavedKey } from '../../../shared/schemas'
import type { SavedKeys } from '../base/keys'
import type { SecretBox } from '../base/secrets'
import type { Store } from '../store'

/// The settings as the store keeps them: parts saved as JSON (read through their schemas) and keys sealed by
/// the secret box, which leave here only as `hasKey` and their last four characters, or to the main process.
export class SavedSettings implements SavedKeys {
  constructor(
    private readonly store: Store,
    readonly box: SecretBox,
  ) {}

  /// A saved part; null when none is saved or it no longer reads as `schema`.
  part<T>(name: string, schema: z.ZodType<T>): T | null {
    const result = schema.safeParse(this.store.settings.get(name))
    return result.success ? result.data : null
  }

  put(name: string, value: unknown, at: string): void {
    this.store.settings.put(name, value, at)
  }

  hasKey(name: string): boolean {
    return this.store.settings.sealed(name) !== null
  }

  /// The saved key `name`, opened; undefined when none is saved.
  read(name: string): string | undefined {
    const sealed = this.store.settings.sealed(name)
    if (sealed === null) return undefined
    try {
      return this.box.decrypt(sealed)
    } catch {
      throw new Error(
        `The saved API key "${name}" cannot be decrypted (was the data folder copied from another computer?); ` +
          'enter it again under Settings.',
      )
    }
  }

  /// Seals and saves a new key (a string), removes it (null) or leaves it (undefined).
  saveKey(name: string, key: string | null | undefined, at: string): void {
    if (key === null) this.store.settings.deleteSealed(name)
    else if (key !== undefined) this.store.settings.putSealed(name, this.box.encrypt(key), at)
  }

  keyView(name: string): SavedKey {
    if (!this.hasKey(name)) return { hasKey: false, last4: null }
    let key: string | undefined
    try {
      key = this.read(name)
    } catch {
      return { hasKey: true, last4: null }
    }
    return { hasKey: true, last4: key ? key.slice(-4) : null }
  }
}

/// A key given stays as given; a key not given stays saved only while it serves the address it was saved
/// for, so that a saved key never goes to another provider or server (null: forget it).
export const keyFor = (
  given: string | null | undefined,
  sameAddressAsSaved: boolean,
): string | null | undefined => (given !== undefined || sameAddressAsSaved ? given : null)

/// A model of the form as the configuration file would write it (keys are never part of it).
export function modelConfig(model: ModelInput | ModelConfig): ModelConfig {
  return ModelConfig.parse({
    id: model.id,
    provider: model.provider,
    model: model.model,
    ...(model.baseURL ? { baseURL: model.baseURL } : {}),
    ...(model.apiKeyEnv ? { apiKeyEnv: model.apiKeyEnv } : {}),
  })
}
