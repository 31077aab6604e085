import { Elysia } from "elysia";
import { AppError, type ErrorCode, errorBody, errorStatus } from "./errors";
import { logger } from "./logger";
import { customerLanguage } from "./request-language";

function json(status: number, code: ErrorCode, message: string, retryAfterSeconds?: number): Response {
  return Response.json(errorBody(code, message), {
    status,
    headers: retryAfterSeconds === undefined ? undefined : { "retry-after": String(retryAfterSeconds) },
  });
}

/** First validation failure, told in words a person understands. */
function validationMessage(error: { all?: unknown; message: string }): string {
  const all = Array.isArray(error.all) ? error.all : [];
  const first = all[0] as { path?: string; summary?: string; message?: string } | undefined;
  if (!first) return "The request has an invalid field.";
  const field = first.path ? first.path.replace(/^\//, "").replaceAll("/", ".") : "";
  const reason = first.summary ?? first.message ?? "is invalid";
  return field ? `Field "${field}": ${reason}.` : `${reason}.`;
}

/**
 * The single place errors become responses (DESIGN §9): bad input is a 4xx with a
 * clear message, anything unexpected is a logged 500 without internals.
 */
export const errorHandler = new Elysia({ name: "error-handler" })
  .error({ AppError })
  .onError({ as: "global" }, ({ code, error, request }) => {
    // Checked before `code`: Elysia reports an error's own `code` field as the code,
    // and AppError codes such as VALIDATION would be mistaken for Elysia's.
    if (error instanceof AppError) {
      const message = error.localized ? error.messageIn(customerLanguage(request)) : error.message;
      return json(error.status, error.code, message, error.retryAfterSeconds);
    }
    switch (code) {
      case "VALIDATION":
        return json(errorStatus.VALIDATION, "VALIDATION", validationMessage(error));
      case "PARSE":
        return json(
          errorStatus.BAD_REQUEST,
          "BAD_REQUEST",
          "The request body could not be read: send valid JSON.",
        );
      case "NOT_FOUND":
        return json(errorStatus.NOT_FOUND, "NOT_FOUND", "There is no such API endpoint.");
      default: {
        logger.error("unhandled error", {
          method: request.method,
          url: request.url,
          error: error instanceof Error ? (error.stack ?? error.message) : String(error),
        });
        return json(
          errorStatus.INTERNAL,
          "INTERNAL",
          "Something went wrong on our side. Please try again in a minute.",
        );
      }
    }
  });
