import { Elysia, t } from "elysia";
import type { AppContext } from "../../../context";
import { reserveAttempt } from "../../../platform/attempt-limit";
import { errorResponse } from "../../../platform/schemas";
import {
  assertionSchema,
  challengeIdSchema,
  codeKindSchema,
  codeSchema,
  ticketSchema,
} from "./credential-schemas";
import { passkeySignInOptions, signInWithCode, signInWithPasskey } from "./second-factor-sign-in";

const tokenPair = t.Object({ accessToken: t.String(), refreshToken: t.String() });
const refusals = { 400: errorResponse, 401: errorResponse, 429: errorResponse };

/**
 * Passkey challenges asked for without any sign-in: each is a row, so one address may ask
 * for a bounded number (far more than anyone signing in needs).
 */
const optionsLimit = (address: string) => [
  { key: `passkey-options:address:${address}`, limit: 60, windowMs: 15 * 60 * 1000 },
];

/** The second step of a staff sign-in, and a passkey alone (DESIGN §12), under /api/auth. */
export function secondFactorSignInRoutes(context: AppContext) {
  return new Elysia({ tags: ["operators"] })
    .post(
      "/passkey/options",
      async ({ body, request }) => {
        await reserveAttempt(
          context.database,
          optionsLimit(context.clientAddress(request)),
          context.clock.now(),
          "too_many_sign_ins",
        );
        return passkeySignInOptions(context, body.ticket);
      },
      {
        body: t.Object({ ticket: t.Optional(ticketSchema) }),
        detail: {
          summary:
            "A single-use 60 s WebAuthn challenge for a passkey sign-in: of the password step's ticket's operator, or (no ticket) for any discoverable passkey",
        },
      },
    )
    .post(
      "/passkey",
      ({ body, request }) => signInWithPasskey(context, body, context.clientAddress(request)),
      {
        body: t.Object({ challengeId: challengeIdSchema, credential: assertionSchema }),
        response: { 200: tokenPair, ...refusals },
        detail: {
          summary:
            "Sign in with a passkey's assertion (user verification required; its challenge once; a counter that goes back fails)",
        },
      },
    )
    .post(
      "/second-factor",
      ({ body, request }) => signInWithCode(context, body, context.clientAddress(request)),
      {
        body: t.Object({ ticket: ticketSchema, kind: codeKindSchema, code: codeSchema }),
        response: { 200: tokenPair, ...refusals },
        detail: {
          summary:
            "The second step with an authenticator-app code (once, ±1 step) or a recovery code (once); each try counts in the login limits",
        },
      },
    );
}
