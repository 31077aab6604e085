import type { SubscriptionRow } from "../../../db/queries/subscriptions";
import { addMonthsOnDay, dayOfMonth } from "../../platform/calendar";

type Anchored = Pick<SubscriptionRow, "billing_anchor" | "end_date">;

/**
 * The day of the month (UTC) a subscription's billing months end on (DESIGN §13): its
 * anchor's, the moment its first paid period began (`billing_anchor`, as Stripe's
 * `billing_cycle_anchor`). One first paid on the 31st renews on the last day of shorter
 * months and on the 31st again after, instead of drifting to the 28th for ever. Without an
 * anchor, the period end's own day (or `fallback`'s).
 */
export function billingDayOf(subscription: Anchored, fallback?: number): number {
  const anchor = subscription.billing_anchor ?? subscription.end_date ?? fallback ?? 0;
  return dayOfMonth(anchor);
}

/** `months` billing months after `from`, landing on the subscription's billing day. */
export const addBillingMonths = (subscription: Anchored, from: number, months: number): number =>
  addMonthsOnDay(from, months, billingDayOf(subscription, from));
