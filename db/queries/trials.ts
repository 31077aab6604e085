import type { Database } from "../database";
import { statement } from "../database";
import type { PaymentRow } from "./payments";

/** Why a 1-unit payment was not given its trial (bff/modules/payments/orders/trial.ts). */
export type TrialRefusal = "card" | "customer" | "account";

const found = async (row: Promise<{ found: number } | undefined>) => (await row) !== undefined;

/** The trial given once per customer and once per card (DESIGN §13). */
export const trials = {
  /** A first payment of the customer's that took (or still holds) the trial, refunded ones included. */
  hasFirstPayment: (db: Database, userId: number) =>
    found(
      statement<{ found: number }, [number]>(
        db,
        `SELECT 1 AS found FROM payments WHERE user_id = ? AND kind = 'first'
         AND status IN ('completed', 'refunded') AND trial_refusal IS NULL LIMIT 1`,
      ).get(userId),
    ),

  /** The same, other than `paymentId`. */
  hasOtherFirstPayment: (db: Database, userId: number, paymentId: number) =>
    found(
      statement<{ found: number }, [number, number]>(
        db,
        `SELECT 1 AS found FROM payments WHERE user_id = ? AND kind = 'first' AND id <> ?
         AND status IN ('completed', 'refunded') AND trial_refusal IS NULL LIMIT 1`,
      ).get(userId, paymentId),
    ),

  isCardClaimed: (db: Database, fingerprint: string) =>
    found(
      statement<{ found: number }, [string]>(
        db,
        "SELECT 1 AS found FROM trial_cards WHERE card_fingerprint = ?",
      ).get(fingerprint),
    ),

  /** Claims the card unless a payment holds it already; the primary key decides between two at once. */
  claimCard: (db: Database, fingerprint: string, paymentId: number, now: number) =>
    statement(
      db,
      `INSERT INTO trial_cards (card_fingerprint, payment_id, claimed_at) VALUES (?, ?, ?)
     ON CONFLICT (card_fingerprint) DO NOTHING`,
    ).run(fingerprint, paymentId, now),

  cardHolder: async (db: Database, fingerprint: string) =>
    (
      await statement<{ payment_id: number }, [string]>(
        db,
        "SELECT payment_id FROM trial_cards WHERE card_fingerprint = ?",
      ).get(fingerprint)
    )?.payment_id,

  releaseCard: (db: Database, paymentId: number) =>
    statement(db, "DELETE FROM trial_cards WHERE payment_id = ?").run(paymentId),

  markRefusal: (db: Database, paymentId: number, refusal: TrialRefusal | null, now: number) =>
    statement(db, "UPDATE payments SET trial_refusal = ?, updated_at = ? WHERE id = ?").run(
      refusal,
      now,
      paymentId,
    ),

  /** A paid trial refused at Pay buys nothing: it leaves the subscription it was for. */
  refuseAtPay: (db: Database, paymentId: number, refusal: TrialRefusal, now: number) =>
    statement(
      db,
      "UPDATE payments SET trial_refusal = ?, subscription_id = NULL, updated_at = ? WHERE id = ?",
    ).run(refusal, now, paymentId),

  /** Paid trials refused and not yet refunded, unclaimed or with a claim older than `staleBefore`. */
  refusedToRefund: (db: Database, staleBefore: number, limit: number) =>
    statement<PaymentRow, [number, number]>(
      db,
      `SELECT * FROM payments WHERE trial_refusal IS NOT NULL AND status = 'completed' AND is_trial = 1
         AND transaction_id IS NOT NULL AND (refund_claim IS NULL OR refund_claimed_at < ?)
       ORDER BY id LIMIT ?`,
    ).all(staleBefore, limit),
};
