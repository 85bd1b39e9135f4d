import type { ErrorCode, ErrorEnvelope, FieldError } from './schemas'

/// The HTTP status of each error code (api-decisions.md, "Errors").
export const STATUS_OF: Record<
  ErrorCode,
  400 | 401 | 402 | 403 | 404 | 413 | 421 | 422 | 429 | 431 | 500 | 503
> = {
  bad_request: 400,
  unauthorized: 401,
  insufficient_credits: 402,
  forbidden: 403,
  not_found: 404,
  unprocessable: 422,
  /// Too many requests of one kind in a while (estimates); the `Retry-After` header says when to try again.
  rate_limited: 429,
  internal_error: 500,
  /// Extension: the model or search providers a check needs cannot be reached now (nothing was charged).
  providers_unreachable: 503,
  /// A request addressed to a name this server does not answer (DNS rebinding defence; `server.allowedHosts`).
  misdirected_request: 421,
  /// Request headers over Node's limit (16 KB).
  request_header_fields_too_large: 431,
  /// A request body, or what it would add to the organization's store, over a limit (`limits.…`).
  payload_too_large: 413,
}

/// A failure the caller can act on. The engine throws it; the server, the IPC layer and the renderer's
/// bridges carry it as the error envelope and turn it back into this class.
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: FieldError[] | null = null,
    /// For `rate_limited`: the seconds until a retry is let through (the `Retry-After` header).
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message)
    this.name = 'ApiError'
  }

  get status(): number {
    return STATUS_OF[this.code]
  }

  toEnvelope(): ErrorEnvelope {
    return { error: { code: this.code, message: this.message, details: this.details } }
  }

  static fromEnvelope(envelope: ErrorEnvelope): ApiError {
    return new ApiError(envelope.error.code, envelope.error.message, envelope.error.details)
  }
}

/// The refusal of a remote service anywhere but in the desktop app (the page of `factdesk web` always talks to
/// the server that serves it).
export const remoteServiceRefused = (): ApiError =>
  new ApiError('unprocessable', 'A remote service is a setting of the desktop app.')
