import type { App } from "../../bff/app";
import type { ErrorCode } from "../../bff/platform/errors";
import { edenClient } from "./eden-client";

/**
 * The one typed client of the islands, built from the server's `App` type, so a
 * changed route or schema is a type error here. Same-origin: the session cookie goes along.
 * Dates stay the ISO strings the schemas declare.
 */
export const api = edenClient<App>(
  typeof location === "undefined" ? "http://localhost" : location.origin,
).api;

/**
 * What a call of the client answers on success: `ApiData<typeof api.panel.audit.get>` is the
 * body the route's schema declares, so the stores name their types after the server's.
 */
export type ApiData<Call> = Call extends (...args: never[]) => Promise<{ data: infer Body }>
  ? NonNullable<Body>
  : never;

/** The server's user-facing message from an Eden error value, if it sent one. */
export function errorMessage(error: { value?: unknown } | null | undefined): string | undefined {
  const value = error?.value as { error?: { message?: unknown } } | undefined;
  return typeof value?.error?.message === "string" ? value.error.message : undefined;
}

/**
 * The refusal's domain code (the code table in bff/platform/errors.ts), if the server sent
 * one. What a refusal means is decided by its code, never by its HTTP status.
 */
export function errorCode(error: { value?: unknown } | null | undefined): ErrorCode | undefined {
  const value = error?.value as { error?: { code?: unknown } } | undefined;
  return typeof value?.error?.code === "string" ? (value.error.code as ErrorCode) : undefined;
}

/** Eden reports a request that never reached the server as an error whose value is the thrown Error. */
export function isNetworkFailure(error: { value?: unknown } | null | undefined): boolean {
  return error?.value instanceof Error;
}

/**
 * Why a call failed, as a screen tells it: "network" when nothing answered (check the
 * connection), "server" when the server answered that it failed (5xx: try again later),
 * "refused" when it answered with a refusal (its own words say why).
 */
export type FailureCause = "network" | "server" | "refused";

export function failureCause(error: { status?: unknown; value?: unknown } | null | undefined): FailureCause {
  if (!error || isNetworkFailure(error) || typeof error.status !== "number") return "network";
  return error.status >= 500 ? "server" : "refused";
}
