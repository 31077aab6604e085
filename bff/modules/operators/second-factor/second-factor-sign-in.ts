import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import { operators } from "../../../../db/queries/operators";
import type { AppContext } from "../../../context";
import { releaseAttempt, reserveAttempt } from "../../../platform/attempt-limit";
import { AppError } from "../../../platform/errors";
import { loginLimitKeys } from "../login-limits";
import { recordFailure, startPanelSignIn } from "../panel-sign-in";
import { assertionOptions, PasskeyRefusal, verifyAssertion } from "./passkey-factor";
import { checkCode } from "./second-factor-code";
import { operatorOfTicket } from "./sign-in-ticket";

type Services = Pick<AppContext, "database" | "config" | "clock" | "leaseClock">;

/** An enabled operator by id, or the refusal a sign-in gets. */
async function enabledOperator(services: Services, operatorId: number) {
  const account = await operators.byId(services.database, operatorId);
  if (!account) throw new AppError("second_factor_ticket_invalid");
  if (account.is_disabled) throw new AppError("operator_disabled");
  return account;
}

/**
 * The second step with a code: the authenticator app's or a recovery code, for the
 * operator the password step's ticket names. Each try is counted by the login limits
 * before it is checked, like a password (and a right one given back).
 */
export async function signInWithCode(
  services: Services,
  form: { ticket: string; kind: "totp" | "recovery"; code: string },
  address: string,
) {
  const { database, clock, config } = services;
  const now = clock.now();
  const account = await enabledOperator(services, await operatorOfTicket(config.jwtSecret, form.ticket, now));
  const keys = loginLimitKeys(account.username, address, { isWaivable: false });
  await reserveAttempt(database, keys, now, "too_many_sign_ins");
  if (!(await checkCode(services, account.id, form.kind, form.code, now))) {
    await recordFailure(
      services,
      { operatorId: account.id, action: "operator.login-failed", reason: form.kind, address },
      now,
    );
    throw new AppError("wrong_second_factor_code");
  }
  await releaseAttempt(database, keys);
  return startPanelSignIn(services, account, form.kind, address, now);
}

/** A challenge for a passkey sign-in: the ticket's operator's passkeys, or any (a passkey alone). */
export async function passkeySignInOptions(services: Services, ticket: string | undefined) {
  const now = services.clock.now();
  const operatorId =
    ticket === undefined ? null : await operatorOfTicket(services.config.jwtSecret, ticket, now);
  return assertionOptions(services, "sign-in", operatorId, now);
}

/** Signs in with a passkey's assertion; a refused one is audited under the passkey's owner when known. */
export async function signInWithPasskey(
  services: Services,
  form: { challengeId: string; credential: AuthenticationResponseJSON },
  address: string,
) {
  const now = services.clock.now();
  try {
    const operatorId = await verifyAssertion(services, form, "sign-in", undefined, now);
    const account = await enabledOperator(services, operatorId);
    return await startPanelSignIn(services, account, "passkey", address, now);
  } catch (error) {
    if (error instanceof PasskeyRefusal)
      await recordFailure(
        services,
        { operatorId: error.operatorId, action: "operator.login-failed", reason: "passkey", address },
        now,
      );
    throw error;
  }
}
