import type { z } from 'zod'
import { ModelConfig } from '../../../shared/config'
import type { ModelInput, SavedKey } from '../../../shared/schemas'
import type { SavedKeys } from '../base/keys'
import type { SecretBox } from '../base/secrets'
import type { Store } from '../store'
import type { SettingsStore } from '../store/settings'

/// The settings as the store keeps them: parts saved as JSON (read through their schemas) and keys sealed by
/// the secret box, which leave here only as `hasKey` and their last four characters, or to the main process.
/// They are read once into memory (the engine asks for them at every turn, and they are small); `change` writes
/// them through, and on a team server tells the other replicas, which read them again.
export class SavedSettings implements SavedKeys {
  private parts = new Map<string, unknown>()
  private sealed = new Map<string, Buffer>()
  /// The writes of the `change` under way, stored together when it ends.
  private writes: ((settings: SettingsStore) => Promise<void>)[] | null = null
  /// The change or reading under way: the next waits for it, so that a reading never lands over a change that
  /// committed after it read, nor reads one that has not committed yet.
  private turn: Promise<unknown> = Promise.resolve()

  private constructor(
    private readonly store: Store,
    readonly box: SecretBox,
  ) {}

  /// The settings saved in `store`, read again whenever another replica of a team server changed them, and then
  /// `changedElsewhere` called (the listening ends with the store).
  static async load(store: Store, box: SecretBox, changedElsewhere: () => void): Promise<SavedSettings> {
    const saved = new SavedSettings(store, box)
    await store.settings.listen(() => {
      saved.reload().then(changedElsewhere, (error: unknown) => {
        console.error('factdesk: the settings another replica saved could not be read', error)
      })
    })
    await saved.reload()
    return saved
  }

  /// Reads the settings again from the store, after the change under way.
  async reload(): Promise<void> {
    await this.inTurn(() => this.readAll())
  }

  /// Runs `work`, whose `put` and `saveKey` take effect here at once, then stores all it changed in one
  /// transaction, after the change or reading under way. When `work` throws or the store refuses, nothing is
  /// stored and the settings are read again.
  async change(work: () => void): Promise<void> {
    await this.inTurn(async () => {
      const writes: ((settings: SettingsStore) => Promise<void>)[] = []
      this.writes = writes
      try {
        try {
          work()
        } finally {
          this.writes = null
        }
        await this.store.transaction(async (tx) => {
          for (const write of writes) await write(tx.settings)
          await tx.settings.tell()
        })
      } catch (error) {
        await this.readAll()
        throw error
      }
    })
  }

  private async readAll(): Promise<void> {
    const { parts, sealed } = await this.store.settings.all()
    this.parts = parts
    this.sealed = sealed
  }

  private inTurn<T>(work: () => Promise<T>): Promise<T> {
    const run = this.turn.then(work)
    this.turn = run.catch(() => undefined)
    return run
  }

  /// A saved part; null when none is saved or it no longer reads as `schema`.
  part<T>(name: string, schema: z.ZodType<T>): T | null {
    const result = schema.safeParse(this.parts.get(name) ?? null)
    return result.success ? result.data : null
  }

  /// Saves a part (inside `change`).
  put(name: string, value: unknown, at: string): void {
    this.parts.set(name, JSON.parse(JSON.stringify(value)) as unknown)
    this.write((settings) => settings.put(name, value, at))
  }

  hasKey(name: string): boolean {
    return this.sealed.has(name)
  }

  /// The names of every saved key.
  keyNames(): string[] {
    return [...this.sealed.keys()].sort()
  }

  /// Every saved key as sealed, by name: what changes whenever a key is saved or removed.
  sealedKeys(): string {
    return JSON.stringify(this.keyNames().map((name) => [name, this.sealed.get(name)?.toString('base64')]))
  }

  /// The saved key `name`, opened; undefined when none is saved.
  read(name: string): string | undefined {
    const sealed = this.sealed.get(name)
    if (sealed === undefined) return undefined
    try {
      return this.box.decrypt(sealed)
    } catch {
      throw new Error(
        `The saved API key "${name}" cannot be decrypted (was the data folder copied from another computer?); ` +
          'enter it again under Settings.',
      )
    }
  }

  /// Seals and saves a new key (a string), removes it (null) or leaves it (undefined), inside `change`.
  saveKey(name: string, key: string | null | undefined, at: string): void {
    if (key === null) {
      this.sealed.delete(name)
      this.write((settings) => settings.deleteSealed(name))
    } else if (key !== undefined) {
      const sealed = this.box.encrypt(key)
      this.sealed.set(name, sealed)
      this.write((settings) => settings.putSealed(name, sealed, at))
    }
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

  private write(write: (settings: SettingsStore) => Promise<void>): void {
    if (!this.writes) throw new Error('Settings are saved inside SavedSettings.change.')
    this.writes.push(write)
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
