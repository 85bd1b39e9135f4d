import { z } from 'zod'
import type { Operation } from './api'
import { CreateCheckRequest, EstimateRequest, PatchCheckRequest } from './schemas'

const id = z.string().min(1).max(200)

/// The arguments each operation takes, validated by the IPC handlers before the engine sees them. Kept out of
/// api.ts so that zod stays out of the sandboxed preload, which bundles api.ts and may require only 'electron'.
export const OPERATION_ARGS = {
  me: z.tuple([]),
  credits: z.tuple([]),
  estimate: z.tuple([EstimateRequest]),
  submit: z.tuple([CreateCheckRequest]),
  getCheck: z.tuple([id]),
  report: z.tuple([id]),
  listChecks: z.tuple([
    z.strictObject({ limit: z.int().min(1).max(100).optional(), cursor: z.string().optional() }),
  ]),
  cancel: z.tuple([id]),
  patch: z.tuple([id, PatchCheckRequest]),
} satisfies Record<Operation, z.ZodType<unknown[]>>
