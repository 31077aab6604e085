import { t } from "elysia";

/** The error body of DESIGN §9, declared on routes for the OpenAPI document and Eden. */
export const errorResponse = t.Object({
  success: t.Literal(false),
  error: t.Object({ code: t.String(), message: t.String() }),
});

export const customerErrors = { 400: errorResponse, 401: errorResponse, 403: errorResponse } as const;

/** Every customer call names its account; the session decides whether it may. */
export const customerIdentity = {
  uid: t.Optional(t.String({ maxLength: 256 })),
  email: t.String({ minLength: 3, maxLength: 320 }),
};
