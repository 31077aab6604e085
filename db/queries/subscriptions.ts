import type { Currency } from "../../core/money";
import type { PaymentMethod, PaymentProvider } from "../../core/payment-methods";
import type { Database } from "../database";
import { statement } from "../database";
import { jsonRows, skipLocked, smallerOf } from "../dialect";

export type SubscriptionStatus = "NOT_ACTIVE" | "ACTIVE" | "CANCELED" | "EXPIRED";

/** Who ended a subscription's saved method (DESIGN §13(b); an SBP binding can be ended by the bank). */
export type SavedMethodRemover = "customer" | "bank";

export type SubscriptionRow = {
  id: number;
  user_id: number;
  status: SubscriptionStatus;
  tariff_months: 1 | 3 | 6 | 12;
  trial_days: number;
  currency: Currency;
  first_payment: number;
  period_price: number;
  first_payment_paid: 0 | 1;
  promo_id: number | null;
  promo_discount_percent: number;
  extra_devices: number;
  start_date: number | null;
  end_date: number | null;
  next_charge_at: number | null;
  next_period_index: number;
  dunning_attempts: number;
  card_token: string | null;
  card_last_four: string | null;
  card_fingerprint: string | null;
  /** When the customer removed this subscription's saved card (migration 0005). */
  card_removed_at: number | null;
  /** Who ended the saved method: the customer, or the payer's bank (SBP autopay revoked, migration 0030). */
  card_removed_by: SavedMethodRemover | null;
  /** The provider that holds card_token, the subscription's one saved method, and what it is. */
  saved_provider: PaymentProvider;
  saved_method: PaymentMethod;
  /**
   * When the first paid period began (migration 0022): its day of the month is the billing
   * day every period ends on (bff/modules/subscriptions/billing-anchor.ts).
   */
  billing_anchor: number | null;
  /**
   * When the extra slots' paid time ends, when that is before the period's end (migration
   * 0023: a purchase added time they were not paid for); null: they run with the period.
   */
  slots_paid_until: number | null;
  created_at: number;
  updated_at: number;
};

export type Plan = {
  tariffMonths: 1 | 3 | 6 | 12;
  trialDays: number;
  currency: Currency;
  firstPayment: number;
  periodPrice: number;
};

export const subscriptions = {
  /**
   * The newest subscription of a customer is the current one. A customer has a few
   * rows at most; picking the newest here avoids ORDER BY with a bound parameter,
   * which costs SQLite about ten times more per call on this hot path.
   */
  async current(db: Database, userId: number): Promise<SubscriptionRow | undefined> {
    let newest: SubscriptionRow | undefined;
    for (const row of await statement<SubscriptionRow, [number]>(
      db,
      "SELECT * FROM subscriptions WHERE user_id = ?",
    ).all(userId)) {
      if (!newest || row.id > newest.id) newest = row;
    }
    return newest;
  },

  byId: (db: Database, id: number) =>
    statement<SubscriptionRow, [number]>(db, "SELECT * FROM subscriptions WHERE id = ?").get(id),

  async insertNotActive(db: Database, userId: number, plan: Plan, now: number): Promise<number> {
    const row = await statement<
      { id: number },
      [number, number, number, string, number, number, number, number]
    >(
      db,
      `INSERT INTO subscriptions (user_id, status, tariff_months, trial_days, currency, first_payment, period_price,
           created_at, updated_at)
         VALUES (?, 'NOT_ACTIVE', ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    ).get(
      userId,
      plan.tariffMonths,
      plan.trialDays,
      plan.currency,
      plan.firstPayment,
      plan.periodPrice,
      now,
      now,
    );
    if (!row) throw new Error("subscription insert returned no id");
    return row.id;
  },

  updatePlan: (db: Database, id: number, plan: Plan, now: number) =>
    statement(
      db,
      `UPDATE subscriptions SET tariff_months = ?, trial_days = ?, currency = ?, first_payment = ?, period_price = ?,
           updated_at = ? WHERE id = ? AND status = 'NOT_ACTIVE'`,
    ).run(plan.tariffMonths, plan.trialDays, plan.currency, plan.firstPayment, plan.periodPrice, now, id),

  setPromo: (db: Database, id: number, promoId: number, percent: number, now: number) =>
    statement(
      db,
      "UPDATE subscriptions SET promo_id = ?, promo_discount_percent = ?, updated_at = ? WHERE id = ?",
    ).run(promoId, percent, now, id),

  /**
   * Opens access from `start` to `end` (a trial); the scheduler charges again at `end`, where
   * the first paid period begins: its anchor.
   */
  activate: (db: Database, id: number, start: number, end: number, now: number) =>
    statement(
      db,
      `UPDATE subscriptions SET status = 'ACTIVE', first_payment_paid = 1, start_date = COALESCE(start_date, ?),
           end_date = ?, next_charge_at = ?, billing_anchor = ?, dunning_attempts = 0, updated_at = ? WHERE id = ?`,
    ).run(start, end, end, end, now, id),

  /**
   * A first payment at the full price paid period 0 itself, which begins at `start` (the
   * anchor): the next charge opens period 1.
   */
  activateFirstPeriod: (db: Database, id: number, start: number, end: number, now: number) =>
    statement(
      db,
      `UPDATE subscriptions SET status = 'ACTIVE', first_payment_paid = 1, start_date = COALESCE(start_date, ?),
           end_date = ?, next_charge_at = ?, next_period_index = 1, billing_anchor = ?, dunning_attempts = 0,
           updated_at = ? WHERE id = ?`,
    ).run(start, end, end, start, now, id),

  /**
   * Time added to a running period (a prepaid purchase bound to an account with access).
   * Days added move the billing day: `anchor` is then the new end; months keep it (null).
   * The added time did not pay for extra slots: they end where they were paid to (the old
   * end, or an earlier end of theirs; every SET reads the row as it was).
   */
  extendBy: (db: Database, id: number, duration: number, anchor: number | null, now: number) =>
    statement(
      db,
      `UPDATE subscriptions SET end_date = COALESCE(end_date, ?) + ?,
         next_charge_at = CASE WHEN next_charge_at IS NULL THEN NULL ELSE next_charge_at + ? END,
         billing_anchor = COALESCE(?, billing_anchor),
         slots_paid_until = CASE WHEN extra_devices > 0 THEN COALESCE(slots_paid_until, end_date, ?) ELSE NULL END,
         updated_at = ?
       WHERE id = ?`,
    ).run(now, duration, duration, anchor, now, now, id),

  cancel: (db: Database, id: number, now: number) =>
    statement(
      db,
      "UPDATE subscriptions SET status = 'CANCELED', next_charge_at = NULL, updated_at = ? WHERE id = ? AND status = 'ACTIVE'",
    ).run(now, id),

  resume: (db: Database, id: number, now: number) =>
    statement(
      db,
      `UPDATE subscriptions SET status = 'ACTIVE', next_charge_at = end_date, updated_at = ?
         WHERE id = ? AND status = 'CANCELED' AND end_date > ?`,
    ).run(now, id, now),

  expire: (db: Database, id: number, end: number, now: number) =>
    statement(
      db,
      `UPDATE subscriptions SET status = 'EXPIRED', end_date = ${smallerOf(db)}(COALESCE(end_date, ?), ?),
         next_charge_at = NULL, updated_at = ? WHERE id = ?`,
    ).run(end, end, now, id),

  /**
   * The card (or other saved method) a payment left: kept with the provider and method that
   * hold its token, the subscription's one saved method. A payment that named no token keeps
   * the saved one, and its holder.
   */
  setCard: (
    db: Database,
    id: number,
    card: { token: string | null; lastFour: string | null; fingerprint?: string | null },
    holder: { provider: PaymentProvider; method: PaymentMethod },
    now: number,
  ) =>
    statement(
      db,
      `UPDATE subscriptions SET card_token = COALESCE(?, card_token), card_last_four = COALESCE(?, card_last_four),
         card_fingerprint = COALESCE(?, card_fingerprint), saved_provider = COALESCE(?, saved_provider),
         saved_method = COALESCE(?, saved_method), updated_at = ? WHERE id = ?`,
    ).run(
      card.token,
      card.lastFour,
      card.fingerprint ?? null,
      card.token === null ? null : holder.provider,
      card.token === null ? null : holder.method,
      now,
      id,
    ),

  /**
   * A paid (or free) renewal: the next period starts where the last one ended. Slots that
   * ended before it (slots_paid_until) were not renewed with it: they are gone.
   */
  extend: (db: Database, id: number, end: number, nextPeriodIndex: number, now: number) =>
    statement(
      db,
      `UPDATE subscriptions SET status = CASE WHEN status = 'EXPIRED' THEN 'ACTIVE' ELSE status END, end_date = ?,
         next_charge_at = CASE WHEN status = 'CANCELED' THEN NULL ELSE CAST(? AS BIGINT) END, next_period_index = ?,
         ${slotsRenewed}, dunning_attempts = 0, updated_at = ? WHERE id = ?`,
    ).run(end, end, nextPeriodIndex, now, id),

  /** Many paid renewals in one statement, each as `extend` does it. */
  extendMany: (
    db: Database,
    periods: readonly { id: number; end_date: number; next_period_index: number }[],
    now: number,
  ) =>
    statement<never, [number, string]>(
      db,
      `UPDATE subscriptions SET status = CASE WHEN status = 'EXPIRED' THEN 'ACTIVE' ELSE status END,
         end_date = e.end_date, next_charge_at = CASE WHEN status = 'CANCELED' THEN NULL ELSE e.end_date END,
         next_period_index = e.next_period_index, ${slotsRenewed}, dunning_attempts = 0, updated_at = ?
       FROM ${jsonRows(db, "e", [
         ["id", "BIGINT"],
         ["end_date", "BIGINT"],
         ["next_period_index", "BIGINT"],
       ])}
       WHERE subscriptions.id = e.id`,
    ).run(now, JSON.stringify(periods)),

  /** A declined renewal that will be tried again; access is kept meanwhile. */
  scheduleRetry: (db: Database, id: number, at: number, attempts: number, now: number) =>
    statement(
      db,
      "UPDATE subscriptions SET next_charge_at = ?, dunning_attempts = ?, updated_at = ? WHERE id = ? AND status = 'ACTIVE'",
    ).run(at, attempts, now, id),

  /**
   * Due for a charge, and with no attempt still waiting for its outcome (never charge twice) nor a device
   * slot being bought since `devicePurchasesSince` (it changes the amount: the renewal waits for it); longest
   * due first.
   * On PostgreSQL the rows are locked for the claiming transaction and rows another pass is claiming are
   * skipped, so passes on several instances take different subscriptions instead of colliding.
   */
  due: (db: Database, now: number, limit: number, devicePurchasesSince: number) =>
    statement<SubscriptionRow, [number, number, number]>(
      db,
      `SELECT * FROM subscriptions s WHERE s.status = 'ACTIVE' AND s.next_charge_at IS NOT NULL
         AND s.next_charge_at <= CAST(? AS BIGINT)
         AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.subscription_id = s.id AND p.status = 'pending'
           AND (p.kind = 'renewal' OR (p.kind = 'device' AND p.created_at >= CAST(? AS BIGINT))))
       ORDER BY s.next_charge_at, s.id LIMIT ? ${skipLocked(db)}`,
    ).all(now, devicePurchasesSince, limit),

  /** Cancelled subscriptions whose paid period has run out (DESIGN §5: they are EXPIRED). */
  lapsed: (db: Database, now: number) =>
    statement<SubscriptionRow, [number]>(
      db,
      "SELECT * FROM subscriptions WHERE status = 'CANCELED' AND end_date IS NOT NULL AND end_date <= ?",
    ).all(now),

  expireLapsed: (db: Database, id: number, now: number) =>
    statement(
      db,
      `UPDATE subscriptions SET status = 'EXPIRED', next_charge_at = NULL, updated_at = ?
         WHERE id = ? AND status = 'CANCELED' AND end_date <= ?`,
    ).run(now, id, now),

  /** How many subscriptions are EXPIRED and were last changed at `since` or later. */
  expiredSince: async (db: Database, since: number) =>
    (
      await statement<{ count: number }, [number]>(
        db,
        "SELECT COUNT(*) AS count FROM subscriptions WHERE status = 'EXPIRED' AND updated_at >= ?",
      ).get(since)
    )?.count ?? 0,

  /**
   * One more slot, bought at `boughtAt`. Priced to the other slots' end while they run
   * (slot-quote.ts), it ends with them; bought after they ended, it is the only one and runs
   * with the period.
   */
  addExtraDevice: (db: Database, id: number, boughtAt: number, now: number) =>
    statement(
      db,
      `UPDATE subscriptions SET
         extra_devices = CASE WHEN slots_paid_until <= ? THEN 1 ELSE extra_devices + 1 END,
         slots_paid_until = CASE WHEN slots_paid_until <= ? THEN NULL ELSE slots_paid_until END,
         updated_at = ? WHERE id = ?`,
    ).run(boughtAt, boughtAt, now, id),

  /** A slot taken away (its charge was refunded): one fewer, never below none. */
  removeExtraDevice: (db: Database, id: number, now: number) =>
    statement(
      db,
      `UPDATE subscriptions SET extra_devices = extra_devices - 1,
         slots_paid_until = CASE WHEN extra_devices = 1 THEN NULL ELSE slots_paid_until END, updated_at = ?
       WHERE id = ? AND extra_devices > 0`,
    ).run(now, id),

  /** The demo fixtures' shortcut to a number of extra devices, with no purchase behind it. */
  setExtraDevices: (db: Database, id: number, extraDevices: number) =>
    statement(db, "UPDATE subscriptions SET extra_devices = ? WHERE id = ?").run(extraDevices, id),

  /** When the customer's paid access last ended by `now`, if it ever did. */
  lastEndedAt: async (db: Database, userId: number, now: number) =>
    (
      await statement<{ ended: number | null }, [number, number]>(
        db,
        `SELECT MAX(end_date) AS ended FROM subscriptions
       WHERE user_id = ? AND status IN ('EXPIRED', 'CANCELED', 'ACTIVE') AND end_date IS NOT NULL AND end_date <= ?`,
      ).get(userId, now)
    )?.ended ?? null,
};

/** The slot columns as a renewal leaves them: slots that end before the new period are gone. */
const slotsRenewed = `extra_devices = CASE WHEN slots_paid_until IS NULL THEN extra_devices ELSE 0 END,
  slots_paid_until = NULL`;

/** The extra device slots paid for at `at` (DESIGN §13): none once their own paid time has ended. */
export const paidExtraSlots = (
  subscription: Pick<SubscriptionRow, "extra_devices" | "slots_paid_until">,
  at: number,
): number =>
  subscription.slots_paid_until !== null && subscription.slots_paid_until <= at
    ? 0
    : subscription.extra_devices;

/** The extra slots the next renewal renews and charges: none that end before the period does. */
export const renewedExtraSlots = (
  subscription: Pick<SubscriptionRow, "extra_devices" | "slots_paid_until">,
) => (subscription.slots_paid_until === null ? subscription.extra_devices : 0);

/** Access is open while ACTIVE (dunning keeps it), or CANCELED until the paid period ends. */
export function hasAccess(subscription: SubscriptionRow | undefined, now: number): boolean {
  if (!subscription) return false;
  if (subscription.status === "ACTIVE") return true;
  return subscription.status === "CANCELED" && (subscription.end_date ?? 0) > now;
}
