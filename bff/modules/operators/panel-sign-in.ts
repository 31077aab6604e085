import { audit, type OperatorRow } from "../../../db/queries/operators";
import { signInChecks } from "../../../db/queries/second-factor";
import type { AppContext } from "../../context";
import { randomToken } from "../../platform/random";
import { issueRefreshToken, refreshTokenLifetimeMs, signAccessToken } from "./tokens";

export type SignInMethod = "password" | "passkey" | "totp" | "recovery";

/**
 * A new panel sign-in for an operator who has proved who they are: its audit entry (with
 * the way they proved it), the token pair, and the time of that proof, which counts as
 * the fresh check that adding or removing a factor asks for.
 */
export async function startPanelSignIn(
  services: Pick<AppContext, "database" | "config">,
  account: Pick<OperatorRow, "id" | "role" | "username">,
  method: SignInMethod,
  address: string,
  now: number,
) {
  const { database, config } = services;
  const familyId = randomToken(12);
  return database.transaction(async () => {
    await audit.record(
      database,
      { operatorId: account.id, action: "operator.login", details: { method }, ipAddress: address },
      now,
    );
    await signInChecks.save(database, familyId, now);
    // A sign-in lasts 30 days from its proof: checks older than that belong to none.
    await signInChecks.deleteBefore(database, now - refreshTokenLifetimeMs);
    return {
      accessToken: await signAccessToken(
        config.jwtSecret,
        { operatorId: account.id, role: account.role, username: account.username, familyId },
        now,
      ),
      refreshToken: await issueRefreshToken(database, account.id, familyId, now),
    };
  });
}

/** A failed sign-in or check, audited under the account it was aimed at (never with what was typed). */
export function recordFailure(
  services: Pick<AppContext, "database">,
  failure: { operatorId: number | null; action: string; reason: string; username?: string; address: string },
  now: number,
) {
  return audit.record(
    services.database,
    {
      operatorId: failure.operatorId,
      action: failure.action,
      details: {
        reason: failure.reason,
        ...(failure.username !== undefined && { username: failure.username }),
      },
      ipAddress: failure.address,
    },
    now,
  );
}
