import { Elysia, t } from "elysia";
import { audit, operators } from "../../../db/queries/operators";
import type { AppContext } from "../../platform/context";
import { AppError } from "../../platform/errors";
import { randomToken } from "../../platform/random";
import { errorResponse } from "../../platform/schemas";
import { assertCaptcha, newChallenge } from "./captcha";
import { clientAddress } from "./operator-auth";
import { assertNotLocked, clearFailures, recordFailure } from "./throttle";
import { issueRefreshToken, revokeRefreshFamily, rotateRefreshToken, signAccessToken } from "./tokens";

const tokenPair = t.Object({ accessToken: t.String(), refreshToken: t.String() });
// Spends comparable time on unknown usernames, so timing does not reveal which exist.
const dummyHash = await Bun.password.hash("timing-equaliser-password", { algorithm: "argon2id" });

/** Staff sign-in (DESIGN §7): captcha, Argon2id, throttling, rotating refresh tokens. */
export function operatorAuthModule(context: AppContext) {
  const { database, clock, config } = context;
  return new Elysia({ prefix: "/auth", tags: ["operators"] })
    .get(
      "/captcha",
      async () =>
        config.recaptchaSiteKey
          ? { provider: "recaptcha", siteKey: config.recaptchaSiteKey }
          : { provider: "altcha", ...(await newChallenge(context)) },
      {
        detail: { summary: "A captcha challenge for the staff login (ALTCHA, or reCAPTCHA v2 site key)" },
      },
    )
    .post(
      "/login",
      async ({ body, request }) => {
        try {
          await assertCaptcha(context, body.captcha);
          const now = clock.now();
          const keys = [`account:${body.username.trim().toLowerCase()}`, `address:${clientAddress(request)}`];
          assertNotLocked(database, keys, now);
          const account = operators.byUsername(database, body.username.trim());
          const isValid = await Bun.password.verify(body.password, account?.password_hash ?? dummyHash);
          if (!account || !isValid || account.is_disabled) {
            recordFailure(database, keys, now);
            throw new AppError(
              "UNAUTHORIZED",
              account?.is_disabled && isValid ? "This account is disabled." : "Wrong username or password.",
            );
          }
          clearFailures(database, keys);
          audit.record(
            database,
            { operatorId: account.id, action: "operator.login", ipAddress: clientAddress(request) },
            now,
          );
          return Response.json({
            accessToken: await signAccessToken(
              config.jwtSecret,
              { operatorId: account.id, role: account.role, username: account.username },
              now,
            ),
            refreshToken: issueRefreshToken(database, account.id, randomToken(12), now),
          });
        } catch (error) {
          // The login form shows the server's text as is (spec §8), so errors here are plain text.
          if (error instanceof AppError) {
            return new Response(error.message, {
              status: error.status,
              headers: { "content-type": "text/plain; charset=utf-8" },
            });
          }
          throw error;
        }
      },
      {
        body: t.Object({
          username: t.String({ minLength: 1, maxLength: 64 }),
          password: t.String({ minLength: 1, maxLength: 256 }),
          captcha: t.Optional(t.String({ maxLength: 8192 })),
        }),
        response: { 200: tokenPair },
        detail: {
          summary: "Staff login; errors are plain text (400 captcha, 401 credentials, 429 cool-down)",
        },
      },
    )
    .post(
      "/refreshToken",
      async ({ body }) => {
        const now = clock.now();
        const rotated = rotateRefreshToken(database, body.refreshToken, now);
        const account = operators.byId(database, rotated.operatorId);
        if (!account || account.is_disabled)
          throw new AppError("UNAUTHORIZED", "This operator account is not active.");
        return {
          accessToken: await signAccessToken(
            config.jwtSecret,
            { operatorId: account.id, role: account.role, username: account.username },
            now,
          ),
          refreshToken: rotated.refreshToken,
        };
      },
      {
        body: t.Object({ refreshToken: t.String({ minLength: 1, maxLength: 256 }) }),
        response: { 200: tokenPair, 401: errorResponse },
        detail: { summary: "Rotate the refresh token; a reused one revokes its whole family" },
      },
    )
    .post(
      "/logout",
      ({ body }) => {
        revokeRefreshFamily(database, body.refreshToken, clock.now());
        return { success: true as const };
      },
      {
        body: t.Object({ refreshToken: t.String({ maxLength: 256 }) }),
        detail: { summary: "End the panel session" },
      },
    );
}
