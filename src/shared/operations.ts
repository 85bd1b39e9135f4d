import { z } from 'zod'
import type { Operation } from './api'

/// The arguments each operation takes, validated by the IPC handlers before the engine sees them. Kept out of
/// api.ts so that zod stays out of the sandboxed preload, which bundles api.ts and may require only 'electron'.
export const OPERATION_ARGS = {
  me: z.tuple([]),
  credits: z.tuple([]),
} satisfies Record<Operation, z.ZodType<unknown[]>>
