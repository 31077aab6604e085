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

/**
 * A cancelled subscription (by the customer, or by removing the card) whose paid period
 * has run out becomes EXPIRED (DESIGN §5), and the customer is told it ended.
 */
export function expireLapsed(database: Database, now: number): number {
  return database
    .transaction(() => {
      let expired = 0;
      for (const subscription of subscriptions.lapsed(database, now)) {
        if (subscriptions.expireLapsed(database, subscription.id, now).changes === 0) continue;
        expired++;
        queueSubscriptionEnded(database, subscription, subscription.end_date ?? now, now);
      }
      return expired;
    })
    .immediate();
}
