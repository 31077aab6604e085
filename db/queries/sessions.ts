import type { Database } from "../database";
import { statement } from "../database";

export type SessionRow = {
  id: string;
  user_id: number;
  secret_hash: Uint8Array;
  created_at: number;
  expires_at: number;
};

export const sessions = {
  insert: (
    db: Database,
    id: string,
    userId: number,
    secretHash: Uint8Array,
    now: number,
    expiresAt: number,
  ) =>
    statement(
      db,
      "INSERT INTO sessions (id, user_id, secret_hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?)",
    ).run(id, userId, secretHash, now, expiresAt),

  byId: (db: Database, id: string) =>
    statement<SessionRow, [string]>(db, "SELECT * FROM sessions WHERE id = ?").get(id),

  extend: (db: Database, id: string, expiresAt: number) =>
    statement(db, "UPDATE sessions SET expires_at = ? WHERE id = ?").run(expiresAt, id),

  delete: (db: Database, id: string) => statement(db, "DELETE FROM sessions WHERE id = ?").run(id),

  deleteExpired: (db: Database, now: number) =>
    statement(db, "DELETE FROM sessions WHERE expires_at <= ?").run(now),
};
