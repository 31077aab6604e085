import { audit, operators } from "../../../db/queries/operators";
import type { AppContext } from "../../context";
import { coolDown, releaseAttempt, reserveAttempt } from "../../platform/attempt-limit";
import { AppError } from "../../platform/errors";
import { randomToken } from "../../platform/random";
import { assertCaptcha } from "./captcha";
import { loginLimitKeys } from "./login-limits";
import { hasFreePasswordCheckSlot, withPasswordCheckSlot } from "./password-gate";
import { issueRefreshToken, signAccessToken } from "./tokens";

export type LoginForm = { username: string; password: string; captcha?: string };

// Spends comparable time on unknown usernames, so timing does not reveal which exist.
const dummyHash = await Bun.password.hash("timing-equaliser-password", { algorithm: "argon2id" });

/**
 * Staff sign-in (DESIGN §7, §12) from `address`: the token pair of a new sign-in.
 *
 * The order matters: the captcha is spent first (each guess costs a solved one), then
 * the attempt is counted atomically, and only then is a password hash computed, at
 * most two at a time. An attempt whose password was right, or never checked, is given back.
 * A wrong password let past a full per-account count (from a clean address) answers
 * with that count's cool-down, as it would have without the waiver.
 */
export async function logInOperator(
  services: Pick<AppContext, "database" | "clock" | "config" | "http">,
  form: LoginForm,
  address: string,
) {
  const { database, clock, config } = services;
  await assertCaptcha(services, form.captcha);
  if (!hasFreePasswordCheckSlot()) throw new AppError("sign_in_busy", {}, { retryAfterSeconds: 2 });
  const keys = loginLimitKeys(form.username, address);
  const { waivedUntil } = await reserveAttempt(database, keys, clock.now(), "too_many_sign_ins");
  let isChecked = false;
  try {
    const account = await operators.byUsername(database, form.username.trim());
    const isValid = await withPasswordCheckSlot(() => {
      isChecked = true;
      return Bun.password.verify(form.password, account?.password_hash ?? dummyHash);
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
    return {
      accessToken: await signAccessToken(
        config.jwtSecret,
        { operatorId: account.id, role: account.role, username: account.username, familyId },
        now,
      ),
      refreshToken: await issueRefreshToken(database, account.id, familyId, now),
    };
  } catch (error) {
    if (!isChecked) await releaseAttempt(database, keys);
    throw error;
  }
}
