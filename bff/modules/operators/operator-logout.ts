import type { AppContext } from "../../context";
import { familyOfRefreshToken, revokeFamily } from "./tokens";

/**
 * Ends a panel sign-in: the refresh token's family, and the family of the bearer token the
 * call came with. The bearer is asked for after the refresh family is revoked, so a bearer
 * of that same family is already closed and counts for nothing.
 */
export async function logOutOperator(
  { database, clock }: Pick<AppContext, "database" | "clock">,
  refreshToken: string | undefined,
  bearerFamilyId: () => Promise<string | undefined>,
) {
  const now = clock.now();
  const family = refreshToken ? await familyOfRefreshToken(database, refreshToken) : undefined;
  if (family) await revokeFamily(database, family, now);
  // A valid bearer token ends its own sign-in too, even without the refresh token.
  const bearer = await bearerFamilyId();
  if (bearer) await revokeFamily(database, bearer, now);
  return { success: true as const };
}
