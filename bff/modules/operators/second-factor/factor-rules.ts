import type { OperatorRole } from "../../../../db/queries/operators";
import type { Config } from "../../../platform/config";

/**
 * Who must have a second factor (DESIGN §12): every administrator (they refund money and
 * can cut every customer's access), and support staff when SUPPORT_SECOND_FACTOR=required.
 */
export const isSecondFactorRequired = (role: OperatorRole, config: Pick<Config, "supportSecondFactor">) =>
  role === "admin" || config.supportSecondFactor === "required";

/** How long after a proof of who holds a sign-in its factors may be changed without another. */
export const freshCheckMs = 5 * 60 * 1000;
/** WebAuthn challenges live this long and serve one ceremony. */
export const challengeLifetimeMs = 60 * 1000;
export const maxPasskeys = 10;
export const recoveryCodeCount = 10;
