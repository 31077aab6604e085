import type { Database } from "../database";
import { statement } from "../database";
import type { PaymentRow } from "./payments";
import type { UserRow } from "./users";

/** A payment with its refund claim (migration 0006). */
export type ClaimablePaymentRow = PaymentRow & {
  refund_claim: string | null;
  refund_claimed_at: number | null;
};

/** Operator refunds: choosing payments, claiming them, recording the gateway's answer. */
export const refunds = {
  usersByUid: (db: Database, uid: string) =>
    statement<UserRow, [string]>(db, "SELECT * FROM users WHERE uid = ?").all(uid),

  byTransaction: (db: Database, transactionId: string) =>
    statement<ClaimablePaymentRow, [string]>(db, "SELECT * FROM payments WHERE transaction_id = ?").get(
      transactionId,
    ),

  /** The charge that opened a subscription's current period: its newest paid first or renewal charge. */
  periodCharge: (db: Database, subscriptionId: number) =>
    statement<ClaimablePaymentRow, [number]>(
      db,
      `SELECT * FROM payments WHERE subscription_id = ? AND kind IN ('first', 'renewal')
         AND status IN ('completed', 'refunded') ORDER BY id DESC LIMIT 1`,
    ).get(subscriptionId),

  /** Extra-device charges made after the period's charge, that is within the period, newest first. */
  deviceChargesAfter: (db: Database, subscriptionId: number, paymentId: number) =>
    statement<ClaimablePaymentRow, [number, number]>(
      db,
      `SELECT * FROM payments WHERE subscription_id = ? AND kind = 'device' AND id > ?
         AND status IN ('completed', 'refunded') ORDER BY id DESC`,
    ).all(subscriptionId, paymentId),

  /** Claims a completed payment for one refund; 0 changes when another live refund holds it. */
  claim: async (db: Database, id: number, claim: string, now: number, staleBefore: number) =>
    (
      await statement(
        db,
        `UPDATE payments SET refund_claim = ?, refund_claimed_at = ?, updated_at = ?
         WHERE id = ? AND status = 'completed' AND (refund_claim IS NULL OR refund_claimed_at < ?)`,
      ).run(claim, now, now, id, staleBefore)
    ).changes,

  /** Gives a claimed payment back untouched (the gateway refused it, or it was never sent). */
  release: (db: Database, id: number, claim: string) =>
    statement(
      db,
      "UPDATE payments SET refund_claim = NULL, refund_claimed_at = NULL WHERE id = ? AND refund_claim = ?",
    ).run(id, claim),

  /**
   * The provider accepted a refund of the payment without doing it yet (an SBP payment's):
   * it is in progress until the provider's Refund notification (markDone).
   */
  markInProgress: (db: Database, id: number) =>
    statement(db, "UPDATE payments SET refund_in_progress = 1 WHERE id = ?").run(id),

  /** The provider's Refund notification came: the payment's refund is done. */
  markDone: (db: Database, id: number) =>
    statement(db, "UPDATE payments SET refund_in_progress = 0 WHERE id = ? AND refund_in_progress = 1").run(
      id,
    ),

  /**
   * The gateway refunded all that was left of the payment. Its Refund notification may
   * have recorded it already (the sandbox sends it before answering); either way the
   * payment ends fully refunded, never more.
   */
  recordRefunded: (db: Database, id: number, now: number) =>
    statement(
      db,
      `UPDATE payments SET status = 'refunded', refunded_amount = amount, refunded_at = ?,
         refund_claim = NULL, refund_claimed_at = NULL, updated_at = ? WHERE id = ? AND status IN ('completed', 'refunded')`,
    ).run(now, now, id),
};
