import { Elysia } from "elysia";
import { translator } from "../../core/i18n";
import { isConflict } from "../../db/conflict-retry";
import { AppError, type ErrorCode, type ErrorValues } from "./errors";
import { logger } from "./logger";
import { callerLanguage } from "./request-language";
import { reasonOf, reasonWords, type SchemaFailure } from "./validation-reasons";

/**
 * How a route answers its refusals when the spec or DESIGN names another form than
 * DESIGN §9's body: `text`, the staff login's plain text message (DESIGN §7), its code in
 * the `x-error-code` header; `with-message`, the body with the spec's `message` beside
 * `error` too (generatePromo answers `message, success`, spec §7).
 */
type ErrorForm = "text" | "with-message";
const errorForms = new WeakMap<Request, ErrorForm>();

/** Called by the route before anything it does can be refused. */
export function answerErrorsAs(request: Request, form: ErrorForm): void {
  errorForms.set(request, form);
}

function answer(request: Request, error: AppError): Response {
  const { code, message } = error.bodyIn(callerLanguage(request)).error;
  const headers: Record<string, string> = {};
  if (error.retryAfterSeconds !== undefined) headers["retry-after"] = String(error.retryAfterSeconds);
  const form = errorForms.get(request);
  if (form === "text") {
    headers["content-type"] = "text/plain; charset=utf-8";
    headers["x-error-code"] = code;
    return new Response(message, { status: error.status, headers });
  }
  const body = { success: false, ...(form === "with-message" ? { message } : {}), error: { code, message } };
  return Response.json(body, { status: error.status, headers });
}

/** The first validation failure, told in words a person understands, all in the caller's language. */
function validationError(error: { all?: unknown }): AppError {
  const all = Array.isArray(error.all) ? error.all : [];
  const first = all[0] as SchemaFailure | undefined;
  if (!first)
    return new AppError("invalid_request", {
      reason: (language) => translator(language)("validation.request"),
    });
  const field = first.path ? first.path.replace(/^\//, "").replaceAll("/", ".") : "";
  const reason = reasonOf(first);
  return field
    ? new AppError("invalid_input", { field, reason: (language) => reasonWords(reason, language) })
    : new AppError("invalid_request", { reason: (language) => reasonWords(reason, language, true) });
}

const refusal = (code: ErrorCode, values?: ErrorValues) => new AppError(code, values);

/**
 * Anything unexpected: logged with its stack, answered as a 500 without internals. A
 * transaction PostgreSQL gave up for conflicts with others through all of its runs again
 * (db/conflict-retry.ts) changed nothing and is nobody's fault: 503 with Retry-After, which
 * tells a caller (the gateway redelivering its notification, a customer's retry) to send it
 * again, and a warning rather than an error in the log.
 */
function unexpected(request: Request, error: unknown): Response {
  if (isConflict(error)) {
    logger.warn("gave up on conflicts, asked to retry", { method: request.method, url: request.url });
    return answer(request, new AppError("database_busy", {}, { retryAfterSeconds: 1 }));
  }
  logger.error("unhandled error", {
    method: request.method,
    url: request.url,
    error: error instanceof Error ? (error.stack ?? error.message) : String(error),
  });
  return answer(request, refusal("internal"));
}

/**
 * What a failure of `request` answers, for work that answers outside Elysia's own error
 * handling (a request hook whose promise Elysia does not wait on): as the handler below does.
 */
export const answerFailureOf =
  (request: Request) =>
  (error: unknown): Response =>
    error instanceof AppError ? answer(request, error) : unexpected(request, error);

/**
 * The single place errors become responses (DESIGN §9): every refusal by its code, worded in
 * the caller's language; bad input is a 4xx with a clear message, anything unexpected is a
 * logged 500 without internals.
 */
export const errorHandler = new Elysia({ name: "error-handler" })
  .error({ AppError })
  .onError({ as: "global" }, ({ code, error, request }) => {
    // Checked before `code`: Elysia reports an error's own `code` field as the code.
    if (error instanceof AppError) return answer(request, error);
    switch (code) {
      case "VALIDATION":
        return answer(request, validationError(error));
      case "PARSE":
        // A route's own parse hook (the node API's, checking the key before the body) refused it.
        if (error.cause instanceof AppError) return answer(request, error.cause);
        return answer(request, refusal("unreadable_body"));
      case "NOT_FOUND":
        return answer(request, refusal("not_found"));
      default:
        return unexpected(request, error);
    }
  });
