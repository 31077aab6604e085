import { jwtVerify, SignJWT } from "jose";
import type { Database } from "../../../db/database";
import type { OperatorRole } from "../../../db/queries/operators";
import { refreshReplays, refreshTokens } from "../../../db/queries/refresh-tokens";
import { AppError } from "../../platform/errors";
import { randomToken } from "../../platform/random";
import { openPair, sealPair, type TokenPair } from "./replay-seal";

export const accessTokenLifetimeSeconds = 15 * 60;
/** How long a sign-in lasts from the moment its password was entered, however often it is refreshed. */
export const refreshTokenLifetimeMs = 30 * 24 * 60 * 60 * 1000;

const key = (secret: string) => new TextEncoder().encode(secret);
const hash = (token: string) => new Bun.CryptoHasher("sha256").update(token).digest("hex");

export type OperatorClaims = {
  operatorId: number;
  role: OperatorRole;
  username: string;
  /** The refresh-token family (one sign-in): revoking it ends this access token too. */
  familyId: string;
};

/**
 * A 15-minute JWT naming the operator, role and the sign-in it belongs to; never past
 * `signInEndsAt`, so the last one of a sign-in ends with it.
 */
export function signAccessToken(
  secret: string,
  claims: OperatorClaims,
  now: number,
  signInEndsAt = Number.POSITIVE_INFINITY,
): Promise<string> {
  return new SignJWT({ role: claims.role, username: claims.username, sid: claims.familyId })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(String(claims.operatorId))
    .setIssuer("kannt-panel")
    .setIssuedAt(Math.floor(now / 1000))
    .setExpirationTime(
      Math.min(Math.floor(now / 1000) + accessTokenLifetimeSeconds, Math.floor(signInEndsAt / 1000)),
    )
    .sign(key(secret));
}

export async function verifyAccessToken(secret: string, token: string, now: number): Promise<OperatorClaims> {
  try {
    const { payload } = await jwtVerify(token, key(secret), {
      issuer: "kannt-panel",
      algorithms: ["HS256"],
      currentDate: new Date(now),
    });
    const role = payload.role;
    if (
      (role !== "admin" && role !== "support") ||
      typeof payload.username !== "string" ||
      typeof payload.sid !== "string"
    )
      throw new Error("bad claims");
    return { operatorId: Number(payload.sub), role, username: payload.username, familyId: payload.sid };
  } catch {
    throw new AppError("panel_session_expired");
  }
}

/**
 * A new refresh token; `familyId` ties the rotations of one login together. A rotation
 * passes on its family's `expiresAt` (the sign-in's time plus 30 days), so refreshing
 * never stretches a sign-in past 30 days from its password.
 */
export async function issueRefreshToken(
  database: Database,
  operatorId: number,
  familyId: string,
  now: number,
  expiresAt = now + refreshTokenLifetimeMs,
): Promise<string> {
  const token = randomToken(32);
  await refreshTokens.insert(database, { operatorId, familyId, tokenHash: hash(token) }, now, expiresAt);
  return token;
}

/**
 * How long a spent refresh token may be presented again and get the pair its first
 * rotation issued: parallel panel calls that all saw a 401 race to refresh with the same
 * token, and a network retry re-sends it. Past this window a reuse means a leak.
 */
export const refreshReplayWindowMs = 10_000;

/** Signs the pair a rotation answers, for the operator and sign-in the token belongs to. */
export type PairSigner = (rotated: {
  operatorId: number;
  familyId: string;
  refreshToken: string;
  /** When the sign-in ends: 30 days after its password, carried by every rotation. */
  signInEndsAt: number;
}) => Promise<TokenPair>;

/**
 * Rotates a refresh token: the old one is spent and a new one of the same family is
 * issued. A spent token presented again within the replay window, while its family
 * stands, gets the pair its rotation answered, on whichever instance it arrives: the
 * answer is kept in the database, sealed with the spent token (replay-seal.ts). Any
 * other reuse means the token leaked and the whole family is revoked.
 *
 * Parallel calls with one token take turns on the token's row (SQLite: one transaction
 * at a time; PostgreSQL: SERIALIZABLE, the loser re-runs), so the second always finds the
 * first's answer committed.
 */
export async function rotateRefreshToken(
  database: Database,
  token: string,
  now: number,
  sign: PairSigner,
): Promise<TokenPair> {
  const tokenHash = hash(token);
  // The outcome is decided inside the transaction and thrown after it commits: a
  // revocation must not be rolled back by the error that reports it.
  const outcome = await database.transaction(async (): Promise<TokenPair | AppError> => {
    const row = await refreshTokens.byHash(database, tokenHash);
    if (!row) return new AppError("refresh_token_invalid");
    if (
      row.rotated_at !== null &&
      row.revoked_at === null &&
      now - row.rotated_at <= refreshReplayWindowMs &&
      row.expires_at > now
    ) {
      const replay = await refreshReplays.sealedFor(database, tokenHash);
      const pair = replay && (await openPair(token, replay.sealed));
      if (pair) return pair;
    }
    if (row.rotated_at !== null || row.revoked_at !== null) {
      await refreshTokens.revokeFamily(database, row.family_id, now);
      return new AppError("refresh_token_reused");
    }
    if (row.expires_at <= now) return new AppError("panel_session_expired");
    await refreshTokens.markRotated(database, row.id, now);
    const pair = await sign({
      operatorId: row.operator_id,
      familyId: row.family_id,
      refreshToken: await issueRefreshToken(database, row.operator_id, row.family_id, now, row.expires_at),
      signInEndsAt: row.expires_at,
    });
    // Answers past their window are of no use to anyone: dropped as new ones come.
    await refreshReplays.deleteBefore(database, now - refreshReplayWindowMs);
    await refreshReplays.insert(database, tokenHash, await sealPair(token, pair), now);
    return pair;
  });
  if (outcome instanceof AppError) throw outcome;
  return outcome;
}

/** The family a refresh token belongs to, if it is one of ours. */
export async function familyOfRefreshToken(database: Database, token: string): Promise<string | undefined> {
  return refreshTokens.familyOf(database, hash(token));
}

export async function revokeFamily(database: Database, familyId: string, now: number): Promise<void> {
  await refreshTokens.revokeFamily(database, familyId, now);
}

/** Ends every sign-in of an operator: a new password or a disabled account leaves none standing. */
export async function revokeOperatorSignIns(
  database: Database,
  operatorId: number,
  now: number,
): Promise<void> {
  await refreshTokens.revokeOperator(database, operatorId, now);
}

/** Whether a sign-in still stands: its family exists and none of it was revoked. */
export async function isFamilyActive(database: Database, familyId: string): Promise<boolean> {
  const row = await refreshTokens.familyState(database, familyId);
  return row !== undefined && row.total > 0 && row.revoked === 0;
}
