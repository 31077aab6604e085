import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import { audit, operators } from "../../../../db/queries/operators";
import { signInChecks } from "../../../../db/queries/second-factor";
import type { AppContext } from "../../../context";
import { releaseAttempt, reserveAttempt } from "../../../platform/attempt-limit";
import { AppError } from "../../../platform/errors";
import { loginLimitKeys } from "../login-limits";
import { recordFailure } from "../panel-sign-in";
import { withPasswordCheckSlot } from "../password-gate";
import type { Holder } from "./factor-changes";
import { freshCheckMs } from "./factor-rules";
import { verifyAssertion } from "./passkey-factor";
import { checkCode } from "./second-factor-code";

type Services = Pick<AppContext, "database" | "config" | "clock" | "leaseClock">;

/** Adding or removing a factor needs a proof of who holds the sign-in from the last minutes. */
export async function assertFresh(services: Pick<AppContext, "database">, familyId: string, now: number) {
  const checkedAt = await signInChecks.checkedAt(services.database, familyId);
  if (checkedAt === undefined || checkedAt + freshCheckMs <= now) throw new AppError("fresh_check_required");
}

export type CheckForm =
  | { password: string }
  | { kind: "totp" | "recovery"; code: string }
  | { challengeId: string; credential: AuthenticationResponseJSON };

/**
 * A fresh proof inside a sign-in: the password again, a code or a passkey. A password or
 * code is a guess like a sign-in's, so it is counted by the same login limits (a stolen
 * session cannot try passwords unbounded); a passkey cannot be guessed.
 */
export async function checkHolder(services: Services, holder: Holder, form: CheckForm) {
  const { database, clock } = services;
  const now = clock.now();
  const method = "password" in form ? "password" : "kind" in form ? form.kind : "passkey";
  const failed = async (code: "wrong_password" | "wrong_second_factor_code" | "passkey_not_accepted") => {
    await recordFailure(
      services,
      {
        operatorId: holder.id,
        action: "operator.fresh-check-failed",
        reason: method,
        address: holder.address,
      },
      now,
    );
    return new AppError(code);
  };
  if ("challengeId" in form) {
    const isRight = await verifyAssertion(services, form, "check", holder.id, now).then(
      () => true,
      () => false,
    );
    if (!isRight) throw await failed("passkey_not_accepted");
  } else {
    const keys = loginLimitKeys(holder.username, holder.address, { isWaivable: false });
    await reserveAttempt(database, keys, now, "too_many_sign_ins");
    let isRight: boolean;
    if ("password" in form) {
      const account = await operators.byId(database, holder.id);
      if (!account) throw new AppError("operator_inactive");
      isRight = await withPasswordCheckSlot(() =>
        Bun.password.verify(form.password, account.password_hash),
      ).catch(async (error) => {
        await releaseAttempt(database, keys);
        throw error;
      });
    } else {
      isRight = await checkCode(services, holder.id, form.kind, form.code, now);
    }
    if (!isRight) throw await failed("password" in form ? "wrong_password" : "wrong_second_factor_code");
    await releaseAttempt(database, keys);
  }
  await database.transaction(async () => {
    await signInChecks.save(database, holder.familyId, now);
    await audit.record(
      database,
      {
        operatorId: holder.id,
        action: "operator.fresh-check",
        details: { method },
        ipAddress: holder.address,
      },
      now,
    );
  });
  return { freshUntil: now + freshCheckMs };
}
