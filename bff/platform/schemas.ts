import type { TLiteral, TUnion } from "@sinclair/typebox";
import { t } from "elysia";

/** The error body of DESIGN §9, declared on routes for the OpenAPI document and Eden. */
export const errorResponse = t.Object({
  success: t.Literal(false),
  error: t.Object({ code: t.String(), message: t.String() }),
});

export const customerErrors = { 400: errorResponse, 401: errorResponse, 403: errorResponse } as const;

/** What every panel call may refuse with. */
export const panelErrors = { ...customerErrors, 404: errorResponse } as const;

/** What a panel change may also refuse with: a name taken, or a state that forbids it (409). */
export const panelChangeErrors = { ...panelErrors, 409: errorResponse } as const;

/**
 * A row id in a path or query: plain decimal digits without a leading zero, at most 15 of
 * them (below 2^53). A number parser would also read `0x10`, `1e3`, ` 12`, `+12` or
 * `12.0` as some id, so one id would have many spellings (and caches, logs and audit
 * entries keyed by the path would disagree); those are bad requests, as are a fraction
 * and a 30-digit number, which PostgreSQL would refuse with a 500.
 */
export const rowId = t
  .Transform(t.String({ pattern: "^[1-9][0-9]{0,14}$", description: "a positive whole number, in decimal" }))
  .Decode((digits) => Number(digits))
  .Encode((id) => String(id));

/** Every customer call names its account; the session decides whether it may. */
export const customerIdentity = {
  uid: t.Optional(t.String({ maxLength: 256 })),
  email: t.String({ minLength: 3, maxLength: 320 }),
};

/**
 * One of a fixed list of words, as a union of literals (its refusal names the allowed values,
 * validation-reasons.ts). Typed as a tuple, so a client sees the words, not `never`.
 */
export function oneOf<const Values extends readonly string[]>(
  values: Values,
): TUnion<{ -readonly [Index in keyof Values]: TLiteral<Values[Index]> }> {
  return t.Union(values.map((value) => t.Literal(value))) as never;
}
