import type { Database } from "../../../../db/database";
import { devices } from "../../../../db/queries/devices";
import { paidExtraSlots, type SubscriptionRow } from "../../../../db/queries/subscriptions";
import { accessEndsAt } from "../subscription/allowlist/access-rule";

/** The subscription gives access now, by the nodes' own rule. */
export const givesAccess = (subscription: SubscriptionRow | undefined, now: number) =>
  accessEndsAt(subscription, now) !== null;

/** Device slots: one included plus the extra ones bought and still paid for, while access is open. */
export function slotsOf(subscription: SubscriptionRow | undefined, now: number): number {
  return subscription && givesAccess(subscription, now) ? 1 + paidExtraSlots(subscription, now) : 0;
}

/** Slots not taken by a device in use (a pending one only while it holds its slot). */
export async function freeSlots(
  database: Database,
  userId: number,
  subscription: SubscriptionRow | undefined,
  now: number,
): Promise<number> {
  const slots = slotsOf(subscription, now);
  if (slots === 0) return 0;
  return Math.max(0, slots - (await devices.countInUse(database, userId, now)));
}
