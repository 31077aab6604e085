import type { Currency } from "../../core/money";
import type { PaymentMethod } from "../../core/payment-methods";
import type { Database } from "../database";
import { statement } from "../database";
import type { PaymentKind, PaymentStatus } from "./payments";

export type HistoryRow = {
  id: number;
  kind: PaymentKind;
  amount: number;
  currency: Currency;
  status: PaymentStatus;
  description: string;
  transaction_id: string | null;
  tariff_months: number | null;
  trial_days: number | null;
  /** Whether this first payment was the 1-unit trial (its amount alone cannot say: 100% off costs the same). */
  is_trial: 0 | 1;
  subscription_months: number | null;
  refunded_amount: number;
  refunded_at: number | null;
  /** The provider took the refund and has not done it yet (migration 0031). */
  refund_in_progress: 0 | 1;
  /** How the customer paid: the cabinet names it in each row. */
  method: PaymentMethod;
  created_at: number;
};

const columns = `p.id, p.kind, p.amount, p.currency, p.status, p.description, p.transaction_id, p.tariff_months,
  p.trial_days, p.is_trial, s.tariff_months AS subscription_months, p.refunded_amount, p.refunded_at,
  p.refund_in_progress, p.method, p.created_at`;

/**
 * A customer's own payments, always filtered by the owner's id: no call here can reach
 * another customer's row. A first payment still pending is an order the customer opened
 * and did not pay (no money moved), so it is not a payment to show; nor is a renewal
 * attempt that never reached the provider (settleNotSent: its outage, a stopped server),
 * which no bank declined and which the next attempt charges, as the panel's dashboard
 * does not count it declined either.
 */
export const paymentHistory = {
  newestOf: (db: Database, userId: number, limit: number) =>
    statement<HistoryRow, [number, number]>(
      db,
      `SELECT ${columns} FROM payments p LEFT JOIN subscriptions s ON s.id = p.subscription_id
       WHERE p.user_id = ? AND NOT (p.kind = 'first' AND p.status = 'pending')
         AND NOT (p.status = 'declined' AND COALESCE(p.decline_reason, '') = 'not sent to the gateway')
       ORDER BY p.created_at DESC, p.id DESC LIMIT ?`,
    ).all(userId, limit),

  ownPayment: (db: Database, userId: number, paymentId: number) =>
    statement<HistoryRow, [number, number]>(
      db,
      `SELECT ${columns} FROM payments p LEFT JOIN subscriptions s ON s.id = p.subscription_id
       WHERE p.id = ? AND p.user_id = ?`,
    ).get(paymentId, userId),
};
