import type { Database } from "../database";
import { statement } from "../database";
import { isAmong } from "../dialect";
import type { RenewalNoticeRow } from "./renewal-notices";

/**
 * What a renewal claim needs to know of each subscription it has locked, read in one
 * statement after the locks (so on PostgreSQL's READ COMMITTED it sees every attempt a
 * claim before it committed for them).
 */
export type ClaimFacts = {
  /** The subscription. */
  id: number;
  /** Renewal attempts of its next period so far, whatever their outcome. */
  attempts: number;
  /** An attempt still waits for the bank, or a device slot is being bought since the hold began. */
  busy: 0 | 1;
  /** The customer's e-mail, for the charge's receipt. */
  email: string | null;
};

export const renewalClaims = {
  facts: (db: Database, subscriptionIds: readonly number[], devicePurchasesSince: number) =>
    statement<ClaimFacts, [number, string]>(
      db,
      `SELECT s.id AS id,
         (SELECT COUNT(*) FROM payments p WHERE p.subscription_id = s.id AND p.period_index = s.next_period_index
           AND p.kind = 'renewal') AS attempts,
         EXISTS (SELECT 1 FROM payments p WHERE p.subscription_id = s.id AND p.status = 'pending'
           AND (p.kind = 'renewal' OR (p.kind = 'device' AND p.created_at >= CAST(? AS BIGINT)))) AS busy,
         u.email AS email
       FROM subscriptions s JOIN users u ON u.id = s.user_id
       WHERE ${isAmong(db, "s.id")}`,
    ).all(devicePurchasesSince, JSON.stringify(subscriptionIds)),

  /** The latest notice of each subscription's next period (renewalNotices.latest for many). */
  latestNotices: (db: Database, subscriptionIds: readonly number[]) =>
    statement<RenewalNoticeRow, [string]>(
      db,
      `SELECT n.*, m.sent_at FROM renewal_notices n JOIN mail_outbox m ON m.id = n.mail_id
       WHERE n.id IN (SELECT (SELECT MAX(l.id) FROM renewal_notices l WHERE l.subscription_id = s.id
           AND l.period_index = s.next_period_index)
         FROM subscriptions s WHERE ${isAmong(db, "s.id")})`,
    ).all(JSON.stringify(subscriptionIds)),
};
