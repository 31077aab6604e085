import type { Database } from "bun:sqlite";
import { statement } from "../statements";

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
    statement<OperatorRow, [string]>(db, "SELECT * FROM operators WHERE username = ?").get(username) ??
    undefined,
  byId: (db: Database, id: number) =>
    statement<OperatorRow, [number]>(db, "SELECT * FROM operators WHERE id = ?").get(id) ?? undefined,
  count: (db: Database) =>
    statement<{ count: number }, []>(db, "SELECT COUNT(*) AS count FROM operators").get()?.count ?? 0,
  insert(db: Database, username: string, passwordHash: string, role: OperatorRole, now: number): number {
    const row = statement<{ id: number }, [string, string, string, number, number]>(
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
};
