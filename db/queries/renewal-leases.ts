import type { Database } from "../database";
import { statement } from "../database";
import type { PaymentRow } from "./payments";

/**
 * Leases of renewal passes (DESIGN §15) and the claims of pending renewal attempts on
 * them. Times are real time in ms; `liveProcessId` is the only process whose leases can
 * still be alive (the database file is held by it alone), or null when any can.
 */
export const renewalLeases = {
  take: (db: Database, owner: string, processId: string, expiresAt: number, now: number) =>
    statement(
      db,
      "INSERT INTO renewal_leases (owner, process_id, expires_at, started_at) VALUES (?, ?, ?, ?)",
    ).run(owner, processId, expiresAt, now),

  /** Extends a lease that is still alive; false once it expired or was dropped (it is lost for good). */
  renew: async (db: Database, owner: string, expiresAt: number, now: number) =>
    (
      await statement(db, "UPDATE renewal_leases SET expires_at = ? WHERE owner = ? AND expires_at > ?").run(
        expiresAt,
        owner,
        now,
      )
    ).changes === 1,

  release: (db: Database, owner: string) =>
    statement(db, "DELETE FROM renewal_leases WHERE owner = ?").run(owner),

  /** True while an attempt sent under this lease has no known outcome. */
  hasPending: async (db: Database, owner: string) =>
    (await statement<{ found: number }, [string]>(
      db,
      "SELECT 1 AS found FROM payments WHERE claimed_by = ? AND status = 'pending' AND kind = 'renewal' LIMIT 1",
    ).get(owner)) !== undefined,

  /** Puts a pending renewal attempt under a lease; run in the transaction that created or found it. */
  claim: (db: Database, paymentId: number, owner: string) =>
    statement(db, "UPDATE payments SET claimed_by = ? WHERE id = ?").run(owner, paymentId),

  /** Pending renewal attempts whose lease is gone: their pass cannot send or settle them any more. */
  leftovers: (db: Database, now: number, liveProcessId: string | null, limit: number) =>
    statement<PaymentRow, [number, string | null, number]>(
      db,
      `SELECT p.* FROM payments p WHERE p.status = 'pending' AND p.kind = 'renewal'
         AND NOT EXISTS (SELECT 1 FROM renewal_leases l WHERE l.owner = p.claimed_by AND l.expires_at > ?1
           AND (CAST(?2 AS TEXT) IS NULL OR l.process_id = ?2))
       LIMIT ?3`,
    ).all(now, liveProcessId, limit),

  /** Forgets dead leases; an attempt that still names one counts as left over all the same. */
  dropDead: (db: Database, now: number, liveProcessId: string | null) =>
    statement(
      db,
      "DELETE FROM renewal_leases WHERE expires_at <= ?1 OR (CAST(?2 AS TEXT) IS NOT NULL AND process_id <> ?2)",
    ).run(now, liveProcessId),
};
