import { t } from "elysia";

/** The error body of DESIGN §9, declared on routes for the OpenAPI document and Eden. */
export const errorResponse = t.Object({
  success: t.Literal(false),
  error: t.Object({ code: t.String(), message: t.String() }),
});

export const customerErrors = { 400: errorResponse, 401: errorResponse, 403: errorResponse } as const;

/**
 * A row id in a path or query: a whole number a database id can be. A fraction or a
 * 30-digit number is a bad request, not a look-up PostgreSQL would refuse with a 500.
 */
export const rowId = t.Numeric({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, multipleOf: 1 });

/** Every customer call names its account; the session decides whether it may. */
export const customerIdentity = {
  uid: t.Optional(t.String({ maxLength: 256 })),
  email: t.String({ minLength: 3, maxLength: 320 }),
};
