import type { Language } from "../../core/languages";

/**
 * The one error type of the BFF (DESIGN §9). Services throw it; one `onError`
 * handler in app.ts turns it into `{success: false, error: {code, message}}`.
 */
export const errorStatus = {
  BAD_REQUEST: 400,
  VALIDATION: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export type ErrorBody = {
  success: false;
  error: { code: ErrorCode; message: string };
};

/** One text in every interface language. */
export type LocalizedText = Record<Language, string>;

export class AppError extends Error {
  readonly code: ErrorCode;
  /** For 429 and 503: when trying again makes sense, sent as Retry-After. */
  readonly retryAfterSeconds: number | undefined;
  /**
   * A refusal a customer reads on screen (DESIGN §9, §13) carries its text in every
   * language; the error handler answers in the customer's. `message` is the English one
   * (logs, and staff, read English).
   */
  readonly localized: LocalizedText | undefined;

  constructor(code: ErrorCode, message: string | LocalizedText, retryAfterSeconds?: number) {
    super(typeof message === "string" ? message : message.en);
    this.name = "AppError";
    this.code = code;
    this.retryAfterSeconds = retryAfterSeconds;
    this.localized = typeof message === "string" ? undefined : message;
  }

  /** The message in `language` when the error has one per language, else the one it has. */
  messageIn(language: Language): string {
    return this.localized?.[language] ?? this.message;
  }

  get status(): number {
    return errorStatus[this.code];
  }

  toBody(): ErrorBody {
    return { success: false, error: { code: this.code, message: this.message } };
  }
}

export function errorBody(code: ErrorCode, message: string): ErrorBody {
  return { success: false, error: { code, message } };
}
