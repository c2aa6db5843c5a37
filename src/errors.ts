// The one error table (below http/ and services/, which both raise these): code -> HTTP status. fail(), onError, the
// validation hook and, through src/schemas/errors.ts, the zod enum and every OpenAPI error response derive from it, so
// runtime and contract cannot drift apart. Framework-free: services, jobs and the CLI raise these without loading
// an HTTP or schema library.
import type { RateDecision } from "./domain/access";

export const ERROR_STATUS = {
  INVALID_API_KEY: 401,
  EXPIRED_API_KEY: 401,
  PAYMENT_REQUIRED: 402,
  CATEGORY_NOT_ALLOWED: 403,
  REGION_NOT_ALLOWED: 403,
  RESOURCE_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  SUBSCRIPTION_ACTIVE: 409,
  INVALID_PARAMETER: 400,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMIT_EXCEEDED: 429,
  INTERNAL_SERVER_ERROR: 500,
  // Failed internal operation on the paid path, including a failed x402 settlement (spec rule 7).
  INTERNAL_ERROR: 502,
  EMAIL_NOT_SENT: 502,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export type ErrorStatus = (typeof ERROR_STATUS)[ErrorCode];

/** The body of every non-2xx answer (spec "Errors"). */
export type ErrorEnvelope = { error: { code: ErrorCode; message: string; details?: Record<string, unknown> } };

/**
 * What a failure's answer tells a client beyond its envelope, as data (services return data, not headers): the http
 * layer (src/http/verdicts.ts adviceHeaders) writes it as headers.
 */
export type ErrorAdvice = {
  /** Seconds to wait before retrying (Retry-After). */
  readonly retryAfterSeconds?: number;
  /** The answer must not be cached (Cache-Control: no-store). */
  readonly noStore?: boolean;
  /** The rate decision that refused the request (the rate-limit headers, Retry-After included). */
  readonly rate?: RateDecision;
  /** The payment rails' own protocol fields (x402, L402), as the payments package wrote them. */
  readonly payment?: Readonly<Record<string, string>>;
};

/** A failure a client can be told about. Thrown anywhere below a route; onError renders it. */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    readonly advice?: ErrorAdvice,
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
  }
}

export function fail(code: ErrorCode, message: string, details?: Record<string, unknown>, advice?: ErrorAdvice): never {
  throw new ApiError(code, message, details, advice);
}

export function envelope(code: ErrorCode, message: string, details?: Record<string, unknown>): ErrorEnvelope {
  return { error: details ? { code, message, details } : { code, message } };
}
