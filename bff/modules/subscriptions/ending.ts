import type { Database } from "bun:sqlite";
import { type SubscriptionRow, subscriptions } from "../../../db/queries/subscriptions";
import { queueSubscriptionEnded } from "../mail/events";

/**
 * A renewal fell due with no saved card (DESIGN §13(b)): nothing may be charged, so no
 * attempt, no decline and no dunning; the paid period simply ends, and the customer is
 * told. Runs inside the caller's transaction.
 */
export function endWithoutCard(database: Database, subscription: SubscriptionRow, now: number): void {
  const endedAt = subscription.end_date ?? now;
  subscriptions.expire(database, subscription.id, endedAt, now);
  queueSubscriptionEnded(database, subscription, endedAt, now);
}
