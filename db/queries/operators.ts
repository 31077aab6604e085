import type { Database } from "../database";
import { statement } from "../database";

export type OperatorRole = "admin" | "support";
export type OperatorRow = {
  id: number;
  username: string;
  password_hash: string;
  role: OperatorRole;
  is_disabled: 0 | 1;
  created_at: number;
  updated_at: number;
};

export const operators = {
  byUsername: (db: Database, username: string) =>
    statement<OperatorRow, [string]>(db, "SELECT * FROM operators WHERE lower(username) = lower(?)").get(
      username,
    ),
  byId: (db: Database, id: number) =>
    statement<OperatorRow, [number]>(db, "SELECT * FROM operators WHERE id = ?").get(id),
  all: (db: Database) =>
    statement<OperatorRow, []>(db, "SELECT * FROM operators ORDER BY lower(username), id").all(),
  /** Enabled administrators other than `exceptId`: the last one may not be demoted or disabled. */
  otherActiveAdmins: async (db: Database, exceptId: number) =>
    (
      await statement<{ count: number }, [number]>(
        db,
        "SELECT COUNT(*) AS count FROM operators WHERE role = 'admin' AND is_disabled = 0 AND id <> ?",
      ).get(exceptId)
    )?.count ?? 0,
  setRole: (db: Database, id: number, role: OperatorRole, now: number) =>
    statement(db, "UPDATE operators SET role = ?, updated_at = ? WHERE id = ?").run(role, now, id),
  count: async (db: Database) =>
    (await statement<{ count: number }, []>(db, "SELECT COUNT(*) AS count FROM operators").get())?.count ?? 0,
  async insert(
    db: Database,
    username: string,
    passwordHash: string,
    role: OperatorRole,
    now: number,
  ): Promise<number> {
    const row = await statement<{ id: number }, [string, string, string, number, number]>(
      db,
      "INSERT INTO operators (username, password_hash, role, created_at, updated_at) VALUES (?, ?, ?, ?, ?) RETURNING id",
    ).get(username, passwordHash, role, now, now);
    if (!row) throw new Error("operator insert returned no id");
    return row.id;
  },
  setPassword: (db: Database, id: number, passwordHash: string, now: number) =>
    statement(db, "UPDATE operators SET password_hash = ?, updated_at = ? WHERE id = ?").run(
      passwordHash,
      now,
      id,
    ),
  setDisabled: (db: Database, id: number, isDisabled: boolean, now: number) =>
    statement(db, "UPDATE operators SET is_disabled = ?, updated_at = ? WHERE id = ?").run(
      isDisabled ? 1 : 0,
      now,
      id,
    ),
};

export type AuditEntryRow = {
  id: number;
  username: string | null;
  action: string;
  target_user_id: number | null;
  target_email: string | null;
  /** JSON text. */
  details: string;
  ip_address: string | null;
  created_at: number;
};

export const audit = {
  record: (
    db: Database,
    entry: {
      operatorId: number | null;
      action: string;
      targetUserId?: number | null;
      details?: unknown;
      ipAddress?: string | null;
    },
    now: number,
  ) =>
    statement(
      db,
      "INSERT INTO audit_log (operator_id, action, target_user_id, details, ip_address, created_at) VALUES (?, ?, ?, ?, ?, ?)",
    ).run(
      entry.operatorId,
      entry.action,
      entry.targetUserId ?? null,
      JSON.stringify(entry.details ?? {}),
      entry.ipAddress ?? null,
      now,
    ),

  count: async (db: Database) =>
    (await statement<{ count: number }, []>(db, "SELECT COUNT(*) AS count FROM audit_log").get())?.count ?? 0,

  /** A page of entries, newest first, with who acted and on whom. */
  page: (db: Database, limit: number, offset: number) =>
    statement<AuditEntryRow, [number, number]>(
      db,
      `SELECT a.id, o.username, a.action, a.target_user_id, u.email AS target_email, a.details, a.ip_address, a.created_at
         FROM audit_log a LEFT JOIN operators o ON o.id = a.operator_id LEFT JOIN users u ON u.id = a.target_user_id
         ORDER BY a.created_at DESC, a.id DESC LIMIT ? OFFSET ?`,
    ).all(limit, offset),
};
