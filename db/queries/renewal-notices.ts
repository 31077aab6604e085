import type { Database } from "../database";
import { statement } from "../database";
import { largerOf, skipLocked } from "../dialect";
import type { SubscriptionRow } from "./subscriptions";

export type RenewalNoticeRow = {
  id: number;
  subscription_id: number;
  period_index: number;
  mail_id: number;
  charge_at: number;
  amount: number;
  created_at: number;
  /** When its mail went out (null while it has not). */
  sent_at: number | null;
};

export const renewalNotices = {
  insert: (
    db: Database,
    notice: { subscriptionId: number; periodIndex: number; mailId: number; chargeAt: number; amount: number },
    now: number,
  ) =>
    statement(
      db,
      `INSERT INTO renewal_notices (subscription_id, period_index, mail_id, charge_at, amount, created_at)
       VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (mail_id) DO NOTHING`,
    ).run(notice.subscriptionId, notice.periodIndex, notice.mailId, notice.chargeAt, notice.amount, now),

  /** A notice not sent yet, restated: its amount and charge date as they now are. */
  restate: (db: Database, id: number, notice: { chargeAt: number; amount: number }, now: number) =>
    statement(db, "UPDATE renewal_notices SET charge_at = ?, amount = ?, created_at = ? WHERE id = ?").run(
      notice.chargeAt,
      notice.amount,
      now,
      id,
    ),

  /** The latest notice of a subscription's period, with when its mail went out. */
  latest: (db: Database, subscriptionId: number, periodIndex: number) =>
    statement<RenewalNoticeRow, [number, number]>(
      db,
      `SELECT n.*, m.sent_at FROM renewal_notices n JOIN mail_outbox m ON m.id = n.mail_id
       WHERE n.subscription_id = ? AND n.period_index = ? ORDER BY n.id DESC LIMIT 1`,
    ).get(subscriptionId, periodIndex),

  count: async (db: Database, subscriptionId: number, periodIndex: number) =>
    (
      await statement<{ count: number }, [number, number]>(
        db,
        "SELECT COUNT(*) AS count FROM renewal_notices WHERE subscription_id = ? AND period_index = ?",
      ).get(subscriptionId, periodIndex)
    )?.count ?? 0,

  /**
   * ACTIVE subscriptions with a saved card whose next charge falls before `horizon` and
   * that have no notice for that period recent enough to still be valid at the charge
   * (queued within the 6 days before it: a day's slack inside the 7-day limit).
   */
  toNotify: (db: Database, horizon: number, after: { chargeAt: number; id: number }, limit: number) =>
    statement<SubscriptionRow, [number, number, number, number, number, number]>(
      db,
      `SELECT s.* FROM subscriptions s WHERE s.status = 'ACTIVE' AND s.card_token IS NOT NULL
         AND s.next_charge_at IS NOT NULL AND s.next_charge_at <= CAST(? AS BIGINT)
         AND (s.next_charge_at > ? OR (s.next_charge_at = ? AND s.id > ?))
         AND NOT EXISTS (SELECT 1 FROM renewal_notices n WHERE n.subscription_id = s.id
           AND n.period_index = s.next_period_index AND n.created_at >= s.next_charge_at - CAST(? AS BIGINT))
       ORDER BY s.next_charge_at, s.id LIMIT ? ${skipLocked(db)}`,
    ).all(horizon, after.chargeAt, after.chargeAt, after.id, 6 * 86_400_000, limit),

  /** Whether `toNotify` would find anything before `horizon`: a look without locks. */
  anyToNotify: async (db: Database, horizon: number) =>
    (await statement<{ found: number }, [number, number]>(
      db,
      `SELECT 1 AS found FROM subscriptions s WHERE s.status = 'ACTIVE' AND s.card_token IS NOT NULL
         AND s.next_charge_at IS NOT NULL AND s.next_charge_at <= CAST(? AS BIGINT)
         AND NOT EXISTS (SELECT 1 FROM renewal_notices n WHERE n.subscription_id = s.id
           AND n.period_index = s.next_period_index AND n.created_at >= s.next_charge_at - CAST(? AS BIGINT))
       LIMIT 1`,
    ).get(horizon, 6 * 86_400_000)) !== undefined,

  /** Moves a subscription's next charge later (access stays open while ACTIVE). */
  postpone: (db: Database, subscriptionId: number, to: number, now: number) =>
    statement(
      db,
      `UPDATE subscriptions SET next_charge_at = ${largerOf(db)}(next_charge_at, ?), updated_at = ?
         WHERE id = ? AND status = 'ACTIVE'`,
    ).run(to, now, subscriptionId),
};
