import type { Database } from "../database";
import { statement } from "../database";

type WholeAddress = { id: number; address: string };

/**
 * What privacy retention deletes and shortens (DESIGN §16). Every read and delete takes at
 * most `limit` rows, oldest first, so a pass over months of old data is many short
 * statements rather than one that holds the database for minutes.
 */
export const retention = {
  deleteConnectionLogs: (db: Database, before: number, limit: number) =>
    statement<never, [number, number]>(
      db,
      `DELETE FROM connection_logs WHERE id IN (
         SELECT id FROM connection_logs WHERE connected_at < ? ORDER BY connected_at LIMIT ?)`,
    ).run(before, limit),
  /**
   * Connection logs made from `from` (those older are being deleted) to `before` whose
   * address is still whole (not a network/prefix).
   */
  wholeConnectionAddresses: (db: Database, from: number, before: number, limit: number) =>
    statement<WholeAddress, [number, number, number]>(
      db,
      `SELECT id, user_ip AS address FROM connection_logs
       WHERE user_ip IS NOT NULL AND user_ip NOT LIKE '%/%' AND connected_at >= ? AND connected_at < ?
       ORDER BY connected_at LIMIT ?`,
    ).all(from, before, limit),
  setConnectionAddress: (db: Database, id: number, address: string | null) =>
    statement<never, [string | null, number]>(db, "UPDATE connection_logs SET user_ip = ? WHERE id = ?").run(
      address,
      id,
    ),
  wholePaymentAddresses: (db: Database, before: number, limit: number) =>
    statement<WholeAddress, [number, number]>(
      db,
      `SELECT id, ip_address AS address FROM payments
       WHERE ip_address IS NOT NULL AND ip_address NOT LIKE '%/%' AND created_at < ?
       ORDER BY created_at LIMIT ?`,
    ).all(before, limit),
  setPaymentAddress: (db: Database, id: number, address: string | null) =>
    statement<never, [string | null, number]>(db, "UPDATE payments SET ip_address = ? WHERE id = ?").run(
      address,
      id,
    ),
  /**
   * Audit entries of a customer's own act (no operator: deleting their account) whose
   * address is still whole. Operators' entries keep theirs, as the record of who did what.
   */
  wholeCustomerAuditAddresses: (db: Database, before: number, limit: number) =>
    statement<WholeAddress, [number, number]>(
      db,
      `SELECT id, ip_address AS address FROM audit_log
       WHERE operator_id IS NULL AND ip_address IS NOT NULL AND ip_address NOT LIKE '%/%' AND created_at < ?
       ORDER BY created_at LIMIT ?`,
    ).all(before, limit),
  setAuditAddress: (db: Database, id: number, address: string | null) =>
    statement<never, [string | null, number]>(
      db,
      "UPDATE audit_log SET ip_address = ? WHERE id = ? AND operator_id IS NULL",
    ).run(address, id),
  deleteExpiredSessions: (db: Database, now: number, limit: number) =>
    statement<never, [number, number]>(
      db,
      `DELETE FROM sessions WHERE id IN (
         SELECT id FROM sessions WHERE expires_at <= ? ORDER BY expires_at LIMIT ?)`,
    ).run(now, limit),
  /** Throttle rows (their keys hold addresses) whose window ended long ago. */
  deleteStaleThrottles: (db: Database, before: number) =>
    statement<never, [number, number]>(
      db,
      "DELETE FROM login_throttle WHERE window_started_at < ? AND (locked_until IS NULL OR locked_until < ?)",
    ).run(before, before),
};
