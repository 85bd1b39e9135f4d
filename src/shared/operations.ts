import { z } from 'zod'
import type { FileOperation, Operation } from './api'
import {
  CreateCheckRequest,
  CreateDraftRequest,
  CreateTokenRequest,
  EstimateRequest,
  ExportFormat,
  GrantRequest,
  ImportFileRequest,
  ModelTestRequest,
  PatchCheckRequest,
  ResearchRequest,
  SaveDraftRequest,
  SearchTestRequest,
  ServiceTestRequest,
  SettingsPatch,
} from './schemas'

const id = z.string().min(1).max(200)

/// The arguments each operation takes, validated by the IPC handlers before the engine sees them. Kept out of
/// api.ts so that zod stays out of the sandboxed preload, which bundles api.ts and may require only 'electron'.
export const OPERATION_ARGS = {
  me: z.tuple([]),
  credits: z.tuple([]),
  estimate: z.tuple([EstimateRequest]),
  submit: z.tuple([CreateCheckRequest, z.string().optional()]),
  getCheck: z.tuple([id]),
  report: z.tuple([id]),
  export: z.tuple([id, ExportFormat]),
  listChecks: z.tuple([
    z.strictObject({ limit: z.int().min(1).max(100).optional(), cursor: z.string().optional() }),
  ]),
  cancel: z.tuple([id]),
  patch: z.tuple([id, PatchCheckRequest]),
  settings: z.tuple([]),
  updateSettings: z.tuple([SettingsPatch]),
  testModel: z.tuple([ModelTestRequest]),
  detectOllama: z.tuple([]),
  testService: z.tuple([ServiceTestRequest]),
  testSearch: z.tuple([SearchTestRequest]),
  listTokens: z.tuple([]),
  createToken: z.tuple([CreateTokenRequest]),
  revokeToken: z.tuple([id]),
  webhookSecret: z.tuple([]),
  rotateWebhookSecret: z.tuple([]),
  grantCredits: z.tuple([GrantRequest.shape.amount]),
  research: z.tuple([ResearchRequest]),
  getResearch: z.tuple([id]),
  listDrafts: z.tuple([]),
  createDraft: z.tuple([CreateDraftRequest]),
  openDraft: z.tuple([id]),
  saveDraft: z.tuple([id, SaveDraftRequest]),
  importFile: z.tuple([ImportFileRequest]),
  queueCheck: z.tuple([CreateCheckRequest]),
  listPendingChecks: z.tuple([z.boolean()]),
  cancelPendingCheck: z.tuple([id]),
} satisfies Record<Operation, z.ZodType<unknown[]>>

/// The arguments of the desktop's file operations, checked like the others.
export const FILE_OPERATION_ARGS = {
  openFile: z.tuple([]),
  saveFile: z.tuple([id, SaveDraftRequest.shape.text.unwrap()]),
  saveFileAs: z.tuple([id, SaveDraftRequest.shape.text.unwrap()]),
} satisfies Record<FileOperation, z.ZodType<unknown[]>>
