import type { Database } from "../database";
import { statement } from "../database";

/** An operator's passkey (DESIGN §12): the public key and counter its last assertion left. */
export type PasskeyRow = {
  id: number;
  operator_id: number;
  credential_id: string;
  /** The COSE public key, base64url. */
  public_key: string;
  counter: number;
  /** JSON array of the transports the browser reported. */
  transports: string;
  name: string;
  created_at: number;
  last_used_at: number | null;
};

export type TotpRow = {
  id: number;
  operator_id: number;
  secret_sealed: string;
  enabled_at: number | null;
  last_step: number | null;
  created_at: number;
};

export type ChallengePurpose = "sign-in" | "registration" | "check";
export type ChallengeRow = {
  id: string;
  challenge: string;
  purpose: ChallengePurpose;
  operator_id: number | null;
  expires_at: number;
};

export const passkeys = {
  ofOperator: (db: Database, operatorId: number) =>
    statement<PasskeyRow, [number]>(
      db,
      "SELECT * FROM operator_passkeys WHERE operator_id = ? ORDER BY created_at, id",
    ).all(operatorId),
  byCredentialId: (db: Database, credentialId: string) =>
    statement<PasskeyRow, [string]>(db, "SELECT * FROM operator_passkeys WHERE credential_id = ?").get(
      credentialId,
    ),
  async insert(
    db: Database,
    passkey: {
      operatorId: number;
      credentialId: string;
      publicKey: string;
      counter: number;
      transports: string;
      name: string;
    },
    now: number,
  ): Promise<number> {
    const row = await statement<{ id: number }, [number, string, string, number, string, string, number]>(
      db,
      `INSERT INTO operator_passkeys (operator_id, credential_id, public_key, counter, transports, name, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    ).get(
      passkey.operatorId,
      passkey.credentialId,
      passkey.publicKey,
      passkey.counter,
      passkey.transports,
      passkey.name,
      now,
    );
    if (!row) throw new Error("passkey insert returned no id");
    return row.id;
  },
  /**
   * Records a use: the counter moves on only if no other assertion moved it past this one
   * meanwhile (a counter of 0, a synced passkey's, never moves). No change means it lost.
   */
  recordUse: (db: Database, id: number, counter: number, previous: number, now: number) =>
    statement(
      db,
      "UPDATE operator_passkeys SET counter = ?, last_used_at = ? WHERE id = ? AND counter = ?",
    ).run(counter, now, id, previous),
  delete: (db: Database, operatorId: number, id: number) =>
    statement(db, "DELETE FROM operator_passkeys WHERE operator_id = ? AND id = ?").run(operatorId, id),
  deleteOfOperator: (db: Database, operatorId: number) =>
    statement(db, "DELETE FROM operator_passkeys WHERE operator_id = ?").run(operatorId),
};

export const totp = {
  ofOperator: (db: Database, operatorId: number) =>
    statement<TotpRow, [number]>(db, "SELECT * FROM operator_totp WHERE operator_id = ?").get(operatorId),
  /** A new, unconfirmed secret, replacing an unconfirmed one (never an enabled one). */
  savePending: (db: Database, operatorId: number, secretSealed: string, now: number) =>
    statement(
      db,
      `INSERT INTO operator_totp (operator_id, secret_sealed, enabled_at, last_step, created_at) VALUES (?, ?, NULL, NULL, ?)
         ON CONFLICT (operator_id) DO UPDATE SET secret_sealed = excluded.secret_sealed, created_at = excluded.created_at
         WHERE operator_totp.enabled_at IS NULL`,
    ).run(operatorId, secretSealed, now),
  /** Spends a time step: only if it is newer than every step accepted before (no code twice). */
  spendStep: (db: Database, operatorId: number, step: number) =>
    statement(
      db,
      "UPDATE operator_totp SET last_step = ? WHERE operator_id = ? AND (last_step IS NULL OR last_step < ?)",
    ).run(step, operatorId, step),
  enable: (db: Database, operatorId: number, now: number) =>
    statement(db, "UPDATE operator_totp SET enabled_at = ? WHERE operator_id = ? AND enabled_at IS NULL").run(
      now,
      operatorId,
    ),
  delete: (db: Database, operatorId: number) =>
    statement(db, "DELETE FROM operator_totp WHERE operator_id = ?").run(operatorId),
};

export const recoveryCodes = {
  left: async (db: Database, operatorId: number) =>
    (
      await statement<{ count: number }, [number]>(
        db,
        "SELECT COUNT(*) AS count FROM operator_recovery_codes WHERE operator_id = ? AND used_at IS NULL",
      ).get(operatorId)
    )?.count ?? 0,
  insert: (db: Database, operatorId: number, codeHash: string, now: number) =>
    statement(
      db,
      "INSERT INTO operator_recovery_codes (operator_id, code_hash, created_at) VALUES (?, ?, ?)",
    ).run(operatorId, codeHash, now),
  /** Spends a code: one change when it was the operator's and unused, none otherwise. */
  spend: (db: Database, operatorId: number, codeHash: string, now: number) =>
    statement(
      db,
      "UPDATE operator_recovery_codes SET used_at = ? WHERE operator_id = ? AND code_hash = ? AND used_at IS NULL",
    ).run(now, operatorId, codeHash),
  deleteOfOperator: (db: Database, operatorId: number) =>
    statement(db, "DELETE FROM operator_recovery_codes WHERE operator_id = ?").run(operatorId),
};

export const webauthnChallenges = {
  insert: (db: Database, row: ChallengeRow) =>
    statement(
      db,
      "INSERT INTO webauthn_challenges (id, challenge, purpose, operator_id, expires_at) VALUES (?, ?, ?, ?, ?)",
    ).run(row.id, row.challenge, row.purpose, row.operator_id, row.expires_at),
  /** Takes a challenge out: whoever deletes it first has it, so it serves one ceremony only. */
  take: (db: Database, id: string) =>
    statement<ChallengeRow, [string]>(db, "DELETE FROM webauthn_challenges WHERE id = ? RETURNING *").get(id),
  deleteExpired: (db: Database, now: number) =>
    statement(db, "DELETE FROM webauthn_challenges WHERE expires_at <= ?").run(now),
};

export const signInChecks = {
  save: (db: Database, familyId: string, now: number) =>
    statement(
      db,
      `INSERT INTO operator_sign_in_checks (family_id, checked_at) VALUES (?, ?)
         ON CONFLICT (family_id) DO UPDATE SET checked_at = excluded.checked_at`,
    ).run(familyId, now),
  checkedAt: async (db: Database, familyId: string) =>
    (
      await statement<{ checked_at: number }, [string]>(
        db,
        "SELECT checked_at FROM operator_sign_in_checks WHERE family_id = ?",
      ).get(familyId)
    )?.checked_at,
  deleteBefore: (db: Database, before: number) =>
    statement(db, "DELETE FROM operator_sign_in_checks WHERE checked_at < ?").run(before),
};

/** Whether the operator has a second factor in use: a passkey or an enabled TOTP. */
export const hasSecondFactor = async (db: Database, operatorId: number) =>
  (
    await statement<{ found: number }, [number, number]>(
      db,
      `SELECT CASE WHEN EXISTS (SELECT 1 FROM operator_passkeys WHERE operator_id = ?)
          OR EXISTS (SELECT 1 FROM operator_totp WHERE operator_id = ? AND enabled_at IS NOT NULL) THEN 1 ELSE 0 END AS found`,
    ).get(operatorId, operatorId)
  )?.found === 1;
