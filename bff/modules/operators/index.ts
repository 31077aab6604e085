import { Elysia, t } from "elysia";
import type { AppContext } from "../../context";
import { answerErrorsAs } from "../../platform/error-handler";
import { errorResponse } from "../../platform/schemas";
import { newChallenge } from "./captcha";
import { authenticateOperator } from "./operator-auth";
import { logInOperator } from "./operator-login";
import { logOutOperator } from "./operator-logout";
import { refreshOperatorTokens } from "./operator-token-refresh";
import { secondFactorSignInRoutes } from "./second-factor/sign-in-routes";

const tokenPair = t.Object({ accessToken: t.String(), refreshToken: t.String() });
/** A password sign-in's answer: the pair (only for enrolling, when a factor is due), or the second step's ticket. */
const loginAnswer = t.Union([
  t.Object({
    accessToken: t.String(),
    refreshToken: t.String(),
    enrolmentRequired: t.Optional(t.Literal(true)),
  }),
  t.Object({
    secondFactor: t.Object({
      ticket: t.String(),
      methods: t.Array(t.Union([t.Literal("passkey"), t.Literal("totp"), t.Literal("recovery")])),
      expiresAt: t.Number(),
    }),
  }),
]);

/** Staff sign-in (DESIGN §7, §12): captcha, Argon2id, throttling, rotating refresh tokens. */
export function operatorAuthModule(context: AppContext) {
  const { config } = context;
  return new Elysia({ prefix: "/auth", tags: ["operators"] })
    .get(
      "/captcha",
      async () =>
        config.recaptchaSiteKey
          ? { provider: "recaptcha", siteKey: config.recaptchaSiteKey }
          : { provider: "altcha", ...(await newChallenge(context)) },
      { detail: { summary: "A captcha challenge for the staff login (ALTCHA, or reCAPTCHA v2 site key)" } },
    )
    .post(
      "/login",
      async ({ body, request }) => {
        // The login form shows the server's text as is (spec §8): a refusal here is plain text.
        answerErrorsAs(request, "text");
        return Response.json(await logInOperator(context, body, context.clientAddress(request)));
      },
      {
        body: t.Object({
          username: t.String({ minLength: 1, maxLength: 64 }),
          password: t.String({ minLength: 1, maxLength: 256 }),
          captcha: t.Optional(t.String({ maxLength: 8192 })),
        }),
        response: { 200: loginAnswer },
        detail: {
          summary:
            "Staff login: the token pair (with enrolmentRequired when the operator must first add a second factor), or for an operator with a second factor {secondFactor: {ticket, methods, expiresAt}} for /api/auth/passkey or /api/auth/second-factor; a refusal is its message as plain text (400 captcha, 401 credentials, 429 cool-down or busy) in the operator's language, its code in the x-error-code header",
        },
      },
    )
    .use(secondFactorSignInRoutes(context))
    .post("/refreshToken", ({ body }) => refreshOperatorTokens(context, body.refreshToken), {
      body: t.Object({ refreshToken: t.String({ minLength: 1, maxLength: 256 }) }),
      response: { 200: tokenPair, 401: errorResponse },
      detail: {
        summary:
          "Rotate the refresh token; the same token again within 10 s gets the same pair, a later reuse revokes its whole family",
      },
    })
    .post(
      "/logout",
      ({ body, request }) =>
        logOutOperator(context, body.refreshToken, async () => {
          const bearer = await authenticateOperator(context, request).catch(() => undefined);
          return bearer?.familyId;
        }),
      {
        body: t.Object({ refreshToken: t.Optional(t.String({ maxLength: 256 })) }),
        detail: { summary: "End the panel session: its refresh and access tokens stop at once" },
      },
    );
}
