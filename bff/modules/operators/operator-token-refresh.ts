import { operators } from "../../../db/queries/operators";
import type { AppContext } from "../../context";
import { AppError } from "../../platform/errors";
import { rotateRefreshToken, signAccessToken } from "./tokens";

type Services = Pick<AppContext, "database" | "clock" | "config">;

/** A new token pair for a refresh token; the same token again within 10 s, on any instance, gets the same pair (tokens.ts). */
export function refreshOperatorTokens(services: Services, token: string) {
  const now = services.clock.now();
  return rotateRefreshToken(services.database, token, now, (rotated) => signedPair(services, rotated, now));
}

async function signedPair(
  { database, config }: Services,
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
