import type { Database } from "../database";
import { statement } from "../database";

/** An operator's refresh token, kept only as its hash; `family_id` ties one sign-in's rotations. */
export type RefreshTokenRow = {
  id: number;
  operator_id: number;
  family_id: string;
  expires_at: number;
  rotated_at: number | null;
  revoked_at: number | null;
};

export const refreshTokens = {
  insert: (
    db: Database,
    token: { operatorId: number; familyId: string; tokenHash: string },
    now: number,
    expiresAt: number,
  ) =>
    statement(
      db,
      "INSERT INTO refresh_tokens (operator_id, family_id, token_hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?)",
    ).run(token.operatorId, token.familyId, token.tokenHash, now, expiresAt),

  byHash: (db: Database, tokenHash: string) =>
    statement<RefreshTokenRow, [string]>(db, "SELECT * FROM refresh_tokens WHERE token_hash = ?").get(
      tokenHash,
    ),

  familyOf: async (db: Database, tokenHash: string) =>
    (
      await statement<{ family_id: string }, [string]>(
        db,
        "SELECT family_id FROM refresh_tokens WHERE token_hash = ?",
      ).get(tokenHash)
    )?.family_id,

  markRotated: (db: Database, id: number, now: number) =>
    statement(db, "UPDATE refresh_tokens SET rotated_at = ? WHERE id = ?").run(now, id),

  /** Revokes a whole sign-in; tokens revoked before keep their time. */
  revokeFamily: (db: Database, familyId: string, now: number) =>
    statement(db, "UPDATE refresh_tokens SET revoked_at = COALESCE(revoked_at, ?) WHERE family_id = ?").run(
      now,
      familyId,
    ),

  revokeOperator: (db: Database, operatorId: number, now: number) =>
    statement(
      db,
      "UPDATE refresh_tokens SET revoked_at = ? WHERE operator_id = ? AND revoked_at IS NULL",
    ).run(now, operatorId),

  /** Ends every sign-in of the operator but one (the one that just enrolled a factor). */
  revokeOperatorExcept: (db: Database, operatorId: number, keptFamilyId: string, now: number) =>
    statement(
      db,
      "UPDATE refresh_tokens SET revoked_at = ? WHERE operator_id = ? AND family_id <> ? AND revoked_at IS NULL",
    ).run(now, operatorId, keptFamilyId),

  /** How many tokens a sign-in has, and how many of them are revoked. */
  familyState: (db: Database, familyId: string) =>
    statement<{ total: number; revoked: number }, [string]>(
      db,
      "SELECT COUNT(*) AS total, COUNT(revoked_at) AS revoked FROM refresh_tokens WHERE family_id = ?",
    ).get(familyId),
};

/** The answer a rotation gave, sealed with the spent token, for a replay within its window. */
export const refreshReplays = {
  sealedFor: (db: Database, tokenHash: string) =>
    statement<{ sealed: string }, [string]>(
      db,
      "SELECT sealed FROM refresh_replays WHERE token_hash = ?",
    ).get(tokenHash),

  deleteBefore: (db: Database, before: number) =>
    statement(db, "DELETE FROM refresh_replays WHERE created_at < ?").run(before),

  insert: (db: Database, tokenHash: string, sealed: string, now: number) =>
    statement(db, "INSERT INTO refresh_replays (token_hash, sealed, created_at) VALUES (?, ?, ?)").run(
      tokenHash,
      sealed,
      now,
    ),
};
