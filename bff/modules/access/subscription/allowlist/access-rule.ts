import { dayMs } from "../../../../../core/calendar";
import type { SubscriptionRow } from "../../../../../db/queries/subscriptions";
import { retryDelaysDays } from "../../../subscriptions/dunning";

/**
 * How long after its due charge an ACTIVE subscription can stay ACTIVE with no further
 * write: dunning retries until the last delay after the due date, then a day for the
 * bank's answer and the scheduler's lag. Any change before then (a renewal, an expiry, a
 * refund) reaches the nodes as a change, so this only matters while the product is
 * unreachable, where a paying customer must not be cut off (DESIGN §8).
 */
export const activeGraceMs = ((retryDelaysDays.at(-1) ?? 0) + 1) * dayMs;

/**
 * When a customer's access ends, by the cabinet's rule (DESIGN §8): CANCELED (or card
 * removed) runs to the end of the period; ACTIVE lasts while renewals are tried, so its
 * end is the due charge plus `activeGraceMs`; anything else, or a period already over, has
 * none (null). The nodes get `end - now` as each credential's remaining time.
 */
export function accessEndsAt(
  subscription: Pick<SubscriptionRow, "status" | "end_date" | "next_charge_at"> | undefined,
  now: number,
): number | null {
  if (!subscription) return null;
  if (subscription.status === "CANCELED") {
    const end = subscription.end_date ?? 0;
    return end > now ? end : null;
  }
  if (subscription.status !== "ACTIVE") return null;
  const due = Math.max(subscription.end_date ?? now, subscription.next_charge_at ?? 0, now);
  return due + activeGraceMs;
}
