import { Elysia, t } from "elysia";
import { audit, operators } from "../../../db/queries/operators";
import type { AppContext } from "../../context";
import { coolDown, releaseAttempt, reserveAttempt } from "../../platform/attempt-limit";
import { answerErrorsAs } from "../../platform/error-handler";
import { AppError } from "../../platform/errors";
import { randomToken } from "../../platform/random";
import { errorResponse } from "../../platform/schemas";
import { assertCaptcha, newChallenge } from "./captcha";
import { loginLimitKeys } from "./login-limits";
import { authenticateOperator } from "./operator-auth";
import { hasFreePasswordCheckSlot, withPasswordCheckSlot } from "./password-gate";
import {
  familyOfRefreshToken,
  issueRefreshToken,
  revokeFamily,
  rotateRefreshToken,
  signAccessToken,
} from "./tokens";

const tokenPair = t.Object({ accessToken: t.String(), refreshToken: t.String() });
// Spends comparable time on unknown usernames, so timing does not reveal which exist.
const dummyHash = await Bun.password.hash("timing-equaliser-password", { algorithm: "argon2id" });

/** Staff sign-in (DESIGN §7, §12): captcha, Argon2id, throttling, rotating refresh tokens. */
export function operatorAuthModule(context: AppContext) {
  const { database, clock, config } = context;

  /**
   * The order matters: the captcha is spent first (each guess costs a solved one), then
   * the attempt is counted atomically, and only then is a password hash computed, at
   * most two at a time. An attempt whose password was right, or never checked, is given back.
   * A wrong password let past a full per-account count (from a clean address) answers
   * with that count's cool-down, as it would have without the waiver.
   */
  async function login(body: { username: string; password: string; captcha?: string }, address: string) {
    await assertCaptcha(context, body.captcha);
    if (!hasFreePasswordCheckSlot()) throw new AppError("sign_in_busy", {}, { retryAfterSeconds: 2 });
    const keys = loginLimitKeys(body.username, address);
    const { waivedUntil } = await reserveAttempt(database, keys, clock.now(), "too_many_sign_ins");
    let isChecked = false;
    try {
      const account = await operators.byUsername(database, body.username.trim());
      const isValid = await withPasswordCheckSlot(() => {
        isChecked = true;
        return Bun.password.verify(body.password, account?.password_hash ?? dummyHash);
      });
      if (!account || !isValid)
        throw waivedUntil > 0
          ? coolDown(waivedUntil, clock.now(), "too_many_sign_ins")
          : new AppError("wrong_credentials");
      await releaseAttempt(database, keys);
      if (account.is_disabled) throw new AppError("operator_disabled");
      const now = clock.now();
      await audit.record(
        database,
        { operatorId: account.id, action: "operator.login", ipAddress: address },
        now,
      );
      const familyId = randomToken(12);
      return Response.json({
        accessToken: await signAccessToken(
          config.jwtSecret,
          { operatorId: account.id, role: account.role, username: account.username, familyId },
          now,
        ),
        refreshToken: await issueRefreshToken(database, account.id, familyId, now),
      });
    } catch (error) {
      if (!isChecked) await releaseAttempt(database, keys);
      throw error;
    }
  }
  /** Same token again within 10 s, on any instance: the same pair (tokens.ts). */
  function refresh(token: string) {
    const now = clock.now();
    return rotateRefreshToken(database, token, now, (rotated) => signedPair(rotated, now));
  }

  async function signedPair(
    rotated: { operatorId: number; familyId: string; refreshToken: string; signInEndsAt: number },
    now: number,
  ) {
    const account = await operators.byId(database, rotated.operatorId);
    if (!account || account.is_disabled) throw new AppError("operator_inactive");
    return {
      accessToken: await signAccessToken(
        config.jwtSecret,
        {
          operatorId: account.id,
          role: account.role,
          username: account.username,
          familyId: rotated.familyId,
        },
        now,
        rotated.signInEndsAt,
      ),
      refreshToken: rotated.refreshToken,
    };
  }
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
      ({ body, request }) => {
        // The login form shows the server's text as is (spec §8): a refusal here is plain text.
        answerErrorsAs(request, "text");
        return login(body, context.clientAddress(request));
      },
      {
        body: t.Object({
          username: t.String({ minLength: 1, maxLength: 64 }),
          password: t.String({ minLength: 1, maxLength: 256 }),
          captcha: t.Optional(t.String({ maxLength: 8192 })),
        }),
        response: { 200: tokenPair },
        detail: {
          summary:
            "Staff login; a refusal is its message as plain text (400 captcha, 401 credentials, 429 cool-down or busy) in the operator's language, its code in the x-error-code header",
        },
      },
    )
    .post("/refreshToken", ({ body }) => refresh(body.refreshToken), {
      body: t.Object({ refreshToken: t.String({ minLength: 1, maxLength: 256 }) }),
      response: { 200: tokenPair, 401: errorResponse },
      detail: {
        summary:
          "Rotate the refresh token; the same token again within 10 s gets the same pair, a later reuse revokes its whole family",
      },
    })
    .post(
      "/logout",
      async ({ body, request }) => {
        const now = clock.now();
        const family = body.refreshToken
          ? await familyOfRefreshToken(database, body.refreshToken)
          : undefined;
        if (family) await revokeFamily(database, family, now);
        // A valid bearer token ends its own sign-in too, even without the refresh token.
        const bearer = await authenticateOperator(context, request).catch(() => undefined);
        if (bearer) await revokeFamily(database, bearer.familyId, now);
        return { success: true as const };
      },
      {
        body: t.Object({ refreshToken: t.Optional(t.String({ maxLength: 256 })) }),
        detail: { summary: "End the panel session: its refresh and access tokens stop at once" },
      },
    );
}
