import { isoTime } from "../../../core/date-time";
import { toCurrencyUnits } from "../../../core/money";
import type { Database } from "../../../db/database";
import { hasAccess, type SubscriptionRow, subscriptions } from "../../../db/queries/subscriptions";
import { devicesOf } from "../access/devices/devices-part";
import { cardView } from "../payments/card-view";
import { nextChargeAmount } from "../subscriptions/next-charge";

/** What the scheduler will really charge next, and when (nothing when renewal is off). */
export async function nextCharge(database: Database, subscription: SubscriptionRow | undefined, now: number) {
  if (subscription?.status !== "ACTIVE" || subscription.next_charge_at === null) {
    return { nextTransactionDate: null, amount: null };
  }
  return {
    nextTransactionDate: isoTime(subscription.next_charge_at),
    amount: toCurrencyUnits(await nextChargeAmount(database, subscription, now)),
  };
}

/**
 * When the customer's access last ended (a lapsed or expired subscription), so a former
 * customer is told their subscription ended rather than that they never had one. A new,
 * unpaid order row after it does not hide it.
 */
export async function lastEndedAt(database: Database, userId: number, now: number): Promise<string | null> {
  return isoTime(await subscriptions.lastEndedAt(database, userId, now));
}

export async function profileOf(database: Database, userId: number, now: number) {
  const subscription = await subscriptions.current(database, userId);
  return {
    success: true as const,
    userInfo: {
      expirationDate: isoTime(subscription?.end_date ?? null),
      subscriptionIsActive: hasAccess(subscription, now),
      subscriptionStatus: subscription?.status ?? "NOT_ACTIVE",
      ...(await nextCharge(database, subscription, now)),
      endedAt: hasAccess(subscription, now) ? null : await lastEndedAt(database, userId, now),
    },
    ...(await devicesOf(database, userId, now, subscription)),
    card: await cardView(database, userId),
  };
}
