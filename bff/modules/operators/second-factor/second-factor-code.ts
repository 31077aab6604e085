import type { AppContext } from "../../../context";
import { spendRecoveryCode } from "./recovery-codes";
import { spendTotpCode } from "./totp-factor";

/**
 * Checks and spends a code: the authenticator app's at real time (the phone's clock, not
 * the billing test clock), or a recovery code at the product's time.
 */
export function checkCode(
  services: Pick<AppContext, "database" | "config" | "leaseClock">,
  operatorId: number,
  kind: "totp" | "recovery",
  code: string,
  now: number,
) {
  const { database, config } = services;
  return kind === "totp"
    ? spendTotpCode({ database, jwtSecret: config.jwtSecret }, operatorId, code, services.leaseClock.now())
    : spendRecoveryCode(database, operatorId, code, now);
}
