import { operators } from "../../../db/queries/operators";
import { hasSecondFactor, passkeys, totp } from "../../../db/queries/second-factor";
import type { AppContext } from "../../context";
import { coolDown, releaseAttempt, reserveAttempt } from "../../platform/attempt-limit";
import { AppError } from "../../platform/errors";
import { assertCaptcha } from "./captcha";
import { loginLimitKeys } from "./login-limits";
import { recordFailure, startPanelSignIn } from "./panel-sign-in";
import { hasFreePasswordCheckSlot, withPasswordCheckSlot } from "./password-gate";
import { isSecondFactorRequired } from "./second-factor/factor-rules";
import { signTicket } from "./second-factor/sign-in-ticket";

export type LoginForm = { username: string; password: string; captcha?: string };

// Spends comparable time on unknown usernames, so timing does not reveal which exist.
const dummyHash = await Bun.password.hash("timing-equaliser-password", { algorithm: "argon2id" });

/** The ways an operator with a second factor can take the sign-in's second step. */
async function methodsOf(database: AppContext["database"], operatorId: number) {
  const methods: ("passkey" | "totp" | "recovery")[] = [];
  if ((await passkeys.ofOperator(database, operatorId)).length > 0) methods.push("passkey");
  if ((await totp.ofOperator(database, operatorId))?.enabled_at) methods.push("totp");
  methods.push("recovery");
  return methods;
}

/**
 * Staff sign-in (DESIGN §7, §12) from `address`: the token pair of a new sign-in, or, for
 * an operator with a second factor, a ticket for the second step (no tokens yet).
 *
 * The order matters: the captcha is spent first (each guess costs a solved one), then
 * the attempt is counted atomically, and only then is a password hash computed, at
 * most two at a time. An attempt whose password was right, or never checked, is given back.
 * A wrong password let past a full per-account count (from a clean address) answers
 * with that count's cool-down, as it would have without the waiver; an account with a
 * second factor has no waiver. An operator who must have a second factor and has none
 * gets a pair that can only enrol one (`enrolmentRequired`).
 */
export async function logInOperator(
  services: Pick<AppContext, "database" | "clock" | "config" | "http">,
  form: LoginForm,
  address: string,
) {
  const { database, clock, config } = services;
  await assertCaptcha(services, form.captcha);
  if (!hasFreePasswordCheckSlot()) throw new AppError("sign_in_busy", {}, { retryAfterSeconds: 2 });
  // Looked up before counting: whether it has a second factor decides which limits apply.
  const account = await operators.byUsername(database, form.username.trim());
  const hasFactor = account ? await hasSecondFactor(database, account.id) : false;
  const keys = loginLimitKeys(form.username, address, { isWaivable: !hasFactor });
  const { waivedUntil } = await reserveAttempt(database, keys, clock.now(), "too_many_sign_ins");
  let isChecked = false;
  try {
    const isValid = await withPasswordCheckSlot(() => {
      isChecked = true;
      return Bun.password.verify(form.password, account?.password_hash ?? dummyHash);
    });
    if (!account || !isValid) {
      // Only the account's own name goes into the log, never what was typed: a password
      // typed into the name field would otherwise sit there in the clear.
      await recordFailure(
        services,
        { operatorId: account?.id ?? null, action: "operator.login-failed", reason: "password", address },
        clock.now(),
      );
      throw waivedUntil > 0
        ? coolDown(waivedUntil, clock.now(), "too_many_sign_ins")
        : new AppError("wrong_credentials");
    }
    await releaseAttempt(database, keys);
    if (account.is_disabled) throw new AppError("operator_disabled");
    const now = clock.now();
    if (await hasSecondFactor(database, account.id)) {
      return {
        secondFactor: {
          ...(await signTicket(config.jwtSecret, account.id, now)),
          methods: await methodsOf(database, account.id),
        },
      };
    }
    const pair = await startPanelSignIn(services, account, "password", address, now);
    return isSecondFactorRequired(account.role, config)
      ? { ...pair, enrolmentRequired: true as const }
      : pair;
  } catch (error) {
    if (!isChecked) await releaseAttempt(database, keys);
    throw error;
  }
}
