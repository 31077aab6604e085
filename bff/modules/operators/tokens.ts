import type { Database } from "bun:sqlite";
import { jwtVerify, SignJWT } from "jose";
import type { OperatorRole } from "../../../db/queries/operators";
import { statement } from "../../../db/statements";
import { AppError } from "../../platform/errors";
import { randomToken } from "../../platform/random";

export const accessTokenLifetimeSeconds = 15 * 60;
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

/** A 15-minute JWT naming the operator, role and the sign-in it belongs to. */
export function signAccessToken(secret: string, claims: OperatorClaims, now: number): Promise<string> {
  return new SignJWT({ role: claims.role, username: claims.username, sid: claims.familyId })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(String(claims.operatorId))
    .setIssuer("kannt-panel")
    .setIssuedAt(Math.floor(now / 1000))
    .setExpirationTime(Math.floor(now / 1000) + accessTokenLifetimeSeconds)
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
    throw new AppError("UNAUTHORIZED", "Your panel session has expired. Please sign in again.");
  }
}

/** A new refresh token; `familyId` ties the rotations of one login together. */
export function issueRefreshToken(
  database: Database,
  operatorId: number,
  familyId: string,
  now: number,
): string {
  const token = randomToken(32);
  statement(
    database,
    "INSERT INTO refresh_tokens (operator_id, family_id, token_hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?)",
  ).run(operatorId, familyId, hash(token), now, now + refreshTokenLifetimeMs);
  return token;
}

type RefreshRow = {
  id: number;
  operator_id: number;
  family_id: string;
  expires_at: number;
  rotated_at: number | null;
  revoked_at: number | null;
};

/**
 * How long a spent refresh token may be presented again and get the pair its first
 * rotation issued: parallel panel calls that all saw a 401 race to refresh with the same
 * token, and a network retry re-sends it. Past this window a reuse means a leak.
 */
export const refreshReplayWindowMs = 10_000;

export type Rotation =
  | { kind: "rotated"; operatorId: number; familyId: string; refreshToken: string; tokenHash: string }
  | { kind: "replayed"; tokenHash: string };

/**
 * Rotates a refresh token: the old one is spent and a new one of the same family is
 * issued. A spent token presented again within the replay window, while its family
 * stands and `canReplay` still holds its answer, is `replayed`; any other reuse means
 * it leaked and the whole family is revoked.
 */
export function rotateRefreshToken(
  database: Database,
  token: string,
  now: number,
  canReplay: (tokenHash: string) => boolean = () => false,
): Rotation {
  const tokenHash = hash(token);
  // The outcome is decided inside the transaction and thrown after it commits: a
  // revocation must not be rolled back by the error that reports it.
  const outcome = database
    .transaction((): Rotation | AppError => {
      const row = statement<RefreshRow, [string]>(
        database,
        "SELECT * FROM refresh_tokens WHERE token_hash = ?",
      ).get(tokenHash);
      if (!row) return new AppError("UNAUTHORIZED", "This refresh token is not valid. Please sign in again.");
      if (
        row.rotated_at !== null &&
        row.revoked_at === null &&
        now - row.rotated_at <= refreshReplayWindowMs &&
        canReplay(tokenHash)
      )
        return { kind: "replayed", tokenHash };
      if (row.rotated_at !== null || row.revoked_at !== null) {
        statement(
          database,
          "UPDATE refresh_tokens SET revoked_at = COALESCE(revoked_at, ?) WHERE family_id = ?",
        ).run(now, row.family_id);
        return new AppError(
          "UNAUTHORIZED",
          "This refresh token was already used; all sessions from that sign-in are closed. Please sign in again.",
        );
      }
      if (row.expires_at <= now)
        return new AppError("UNAUTHORIZED", "Your panel session has expired. Please sign in again.");
      statement(database, "UPDATE refresh_tokens SET rotated_at = ? WHERE id = ?").run(now, row.id);
      return {
        kind: "rotated",
        operatorId: row.operator_id,
        familyId: row.family_id,
        refreshToken: issueRefreshToken(database, row.operator_id, row.family_id, now),
        tokenHash,
      };
    })
    .immediate();
  if (outcome instanceof AppError) throw outcome;
  return outcome;
}

/** The family a refresh token belongs to, if it is one of ours. */
export function familyOfRefreshToken(database: Database, token: string): string | undefined {
  return statement<{ family_id: string }, [string]>(
    database,
    "SELECT family_id FROM refresh_tokens WHERE token_hash = ?",
  ).get(hash(token))?.family_id;
}

export function revokeFamily(database: Database, familyId: string, now: number): void {
  statement(
    database,
    "UPDATE refresh_tokens SET revoked_at = COALESCE(revoked_at, ?) WHERE family_id = ?",
  ).run(now, familyId);
}

/** Whether a sign-in still stands: its family exists and none of it was revoked. */
export function isFamilyActive(database: Database, familyId: string): boolean {
  const row = statement<{ total: number; revoked: number }, [string]>(
    database,
    "SELECT COUNT(*) AS total, COUNT(revoked_at) AS revoked FROM refresh_tokens WHERE family_id = ?",
  ).get(familyId);
  return row !== null && row.total > 0 && row.revoked === 0;
}
