import { Elysia, t } from "elysia";
import type { AppContext } from "../../../context";
import { panelChangeErrors } from "../../../platform/schemas";
import { authenticateOperator, operatorAuth } from "../operator-auth";
import {
  assertionSchema,
  challengeIdSchema,
  codeKindSchema,
  codeSchema,
  registrationSchema,
} from "./credential-schemas";
import {
  addHolderPasskey,
  confirmHolderTotp,
  factorsOf,
  type Holder,
  removeHolderPasskey,
  removeHolderTotp,
  renewHolderRecoveryCodes,
} from "./factor-changes";
import { assertFresh, checkHolder } from "./fresh-check";
import { assertionOptions, registrationOptions } from "./passkey-factor";
import { startTotp } from "./totp-factor";

const codesAnswer = t.Object({ recoveryCodes: t.Array(t.String()) });
const passkeyAnswer = t.Object({
  id: t.Number(),
  name: t.String(),
  createdAt: t.Number(),
  lastUsedAt: t.Union([t.Number(), t.Null()]),
});

/**
 * The signed-in operator's own second factors (DESIGN §12), under /api/panel/security: the
 * only panel calls open to an operator who must enrol one first. Adding or removing a
 * factor needs a proof of who holds the sign-in from the last five minutes (the sign-in
 * itself, or /confirm); without one it answers 403 fresh_check_required.
 */
export function securityRoutes(context: AppContext) {
  const { database, clock } = context;
  const holderOf = async (request: Request): Promise<Holder> => {
    const operator = await authenticateOperator(context, request);
    return {
      id: operator.id,
      username: operator.username,
      role: operator.role,
      familyId: operator.familyId,
      address: context.clientAddress(request),
    };
  };
  /** The holder, once their sign-in has a fresh proof. */
  const freshHolderOf = async (request: Request) => {
    const holder = await holderOf(request);
    await assertFresh(context, holder.familyId, clock.now());
    return holder;
  };
  return new Elysia({ prefix: "/security", tags: ["panel"] })
    .use(operatorAuth(context))
    .get("/", async ({ request }) => factorsOf(context, await holderOf(request), clock.now()), {
      operator: "support",
      detail: {
        summary:
          "The operator's passkeys, authenticator app and recovery codes left; whether a factor is required",
      },
    })
    .post(
      "/confirm/options",
      async ({ request }) => {
        const holder = await holderOf(request);
        return assertionOptions(context, "check", holder.id, clock.now());
      },
      {
        operator: "support",
        detail: {
          summary: "A single-use 60 s challenge for checking it is the operator with one of their passkeys",
        },
      },
    )
    .post("/confirm", async ({ body, request }) => checkHolder(context, await holderOf(request), body), {
      operator: "support",
      body: t.Union([
        t.Object({ password: t.String({ minLength: 1, maxLength: 256 }) }),
        t.Object({ kind: codeKindSchema, code: codeSchema }),
        t.Object({ challengeId: challengeIdSchema, credential: assertionSchema }),
      ]),
      response: { 200: t.Object({ freshUntil: t.Number() }), ...panelChangeErrors },
      detail: {
        summary:
          "A fresh check (password, code or passkey) before adding or removing a factor; passwords and codes count in the login limits",
      },
    })
    .post(
      "/passkeys/options",
      async ({ request }) => {
        const holder = await freshHolderOf(request);
        return registrationOptions(context, holder, clock.now());
      },
      {
        operator: "support",
        detail: {
          summary: "A single-use 60 s challenge to add a passkey (discoverable, user verification required)",
        },
      },
    )
    .post(
      "/passkeys",
      async ({ body, request }) => addHolderPasskey(context, await freshHolderOf(request), body, clock.now()),
      {
        operator: "support",
        body: t.Object({
          challengeId: challengeIdSchema,
          name: t.String({ maxLength: 256 }),
          credential: registrationSchema,
        }),
        response: {
          200: t.Object({ passkey: passkeyAnswer, recoveryCodes: t.Optional(t.Array(t.String())) }),
          ...panelChangeErrors,
        },
        detail: { summary: "Add a passkey; the first factor also answers 10 recovery codes, shown once" },
      },
    )
    .delete(
      "/passkeys/:id",
      async ({ params, request }) => {
        await removeHolderPasskey(context, await freshHolderOf(request), params.id, clock.now());
        return { success: true };
      },
      {
        operator: "support",
        params: t.Object({ id: t.Integer({ minimum: 1 }) }),
        detail: {
          summary: "Remove one of the operator's passkeys (never the last factor of one who must have one)",
        },
      },
    )
    .post(
      "/totp/start",
      async ({ request }) => {
        const holder = await freshHolderOf(request);
        return startTotp({ database, jwtSecret: context.config.jwtSecret }, holder, clock.now());
      },
      {
        operator: "support",
        detail: {
          summary: "A new authenticator-app secret, its otpauth:// address and QR (SVG), shown this once",
        },
      },
    )
    .post(
      "/totp",
      async ({ body, request }) =>
        confirmHolderTotp(
          context,
          await freshHolderOf(request),
          body.code,
          context.leaseClock.now(),
          clock.now(),
        ),
      {
        operator: "support",
        body: t.Object({ code: codeSchema }),
        response: { 200: codesAnswer, ...panelChangeErrors },
        detail: {
          summary:
            "Confirm the authenticator app with its current code; answers 10 recovery codes, shown once",
        },
      },
    )
    .delete(
      "/totp",
      async ({ request }) => {
        await removeHolderTotp(context, await freshHolderOf(request), clock.now());
        return { success: true };
      },
      { operator: "support", detail: { summary: "Remove the authenticator app" } },
    )
    .post(
      "/recovery-codes",
      async ({ request }) => renewHolderRecoveryCodes(context, await freshHolderOf(request), clock.now()),
      {
        operator: "support",
        response: { 200: codesAnswer, ...panelChangeErrors },
        detail: { summary: "Ten new recovery codes in place of the old ones, shown once" },
      },
    );
}
