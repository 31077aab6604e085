import type { Database } from "../database";
import { statement } from "../database";

/** What the panel's dashboard (DESIGN §16) reads; the adding up is done in bff/modules/panel/dashboard.ts. */
export const dashboardData = {
  /** Paid subscriptions whose access overlaps [from, to): when it began and ends (or ended). */
  accessPeriods: (db: Database, from: number, to: number) =>
    statement<{ start_date: number; end_date: number }, [number, number]>(
      db,
      `SELECT start_date, end_date FROM subscriptions
       WHERE first_payment_paid = 1 AND start_date IS NOT NULL AND end_date IS NOT NULL
         AND start_date < ? AND end_date > ?`,
    ).all(to, from),
  /** Money taken in [from, to), by payment, in full: refunds are subtracted when they were made. */
  paidPayments: (db: Database, from: number, to: number) =>
    statement<{ created_at: number; currency: "RUB" | "KZT"; amount: number }, [number, number]>(
      db,
      `SELECT created_at, currency, amount FROM payments
       WHERE status IN ('completed', 'refunded') AND created_at >= ? AND created_at < ?`,
    ).all(from, to),
  /** Money given back in [from, to), whenever it was taken (a refund's last part dates it). */
  refundsMade: (db: Database, from: number, to: number) =>
    statement<{ refunded_at: number; currency: "RUB" | "KZT"; refunded_amount: number }, [number, number]>(
      db,
      `SELECT refunded_at, currency, refunded_amount FROM payments
       WHERE refunded_amount > 0 AND refunded_at >= ? AND refunded_at < ?`,
    ).all(from, to),
  /**
   * Charges the bank refused in [from, to). Not counted: attempts never sent (a stopped
   * server's, settled later) and orders closed by their customer's deletion of the account.
   */
  declinedPayments: (db: Database, from: number, to: number) =>
    statement<{ created_at: number }, [number, number]>(
      db,
      `SELECT created_at FROM payments WHERE status = 'declined' AND created_at >= ? AND created_at < ?
         AND COALESCE(decline_reason, '') NOT IN ('not sent to the gateway', 'account deleted')`,
    ).all(from, to),
  /** Trials paid in [from, to) (a first payment at the trial price), and whether a renewal of theirs was ever paid. */
  trials: (db: Database, from: number, to: number) =>
    statement<{ id: number; converted: number }, [number, number]>(
      db,
      `SELECT s.id,
              CASE WHEN EXISTS (SELECT 1 FROM payments p WHERE p.subscription_id = s.id AND p.kind = 'renewal'
                                AND p.status IN ('completed', 'refunded')) THEN 1 ELSE 0 END AS converted
       FROM subscriptions s
       WHERE s.first_payment_paid = 1 AND s.start_date >= ? AND s.start_date < ?
         AND EXISTS (SELECT 1 FROM payments f WHERE f.subscription_id = s.id AND f.kind = 'first'
                       AND f.is_trial = 1 AND f.status IN ('completed', 'refunded'))`,
    ).all(from, to),
  /**
   * Of the subscriptions with access at `from`, those whose access ended for good in
   * [from, to): churn's numerator, over the same set as its denominator.
   */
  ended: async (db: Database, from: number, to: number) =>
    (
      await statement<{ count: number }, [number, number, number]>(
        db,
        `SELECT COUNT(*) AS count FROM subscriptions
         WHERE status IN ('EXPIRED', 'CANCELED') AND first_payment_paid = 1
           AND start_date <= ? AND end_date > ? AND end_date < ?`,
      ).get(from, from, to)
    )?.count ?? 0,
};
