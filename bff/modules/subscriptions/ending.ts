import type { Database } from "../../../db/database";
import { type SubscriptionRow, subscriptions } from "../../../db/queries/subscriptions";
import { queueSubscriptionEnded } from "../mail/events";

/**
 * A renewal fell due with no saved card (DESIGN §13(b)): nothing may be charged, so no
 * attempt, no decline and no dunning; the paid period simply ends, and the customer is
 * told. Runs inside the caller's transaction.
 */
export async function endWithoutCard(
  database: Database,
  subscription: SubscriptionRow,
  now: number,
): Promise<void> {
  const endedAt = subscription.end_date ?? now;
  await subscriptions.expire(database, subscription.id, endedAt, now);
  await queueSubscriptionEnded(database, subscription, endedAt, now);
}

/**
 * A cancelled subscription (by the customer, or by removing the card) whose paid period
 * has run out becomes EXPIRED (DESIGN §5), and the customer is told it ended. The rows
 * are read and expired in one transaction, and each is expired only while still
 * CANCELED, so a pass running on another instance at the same time tells no one twice.
 */
export async function expireLapsed(database: Database, now: number): Promise<number> {
  return database.transaction(async () => {
    let expired = 0;
    for (const subscription of await subscriptions.lapsed(database, now)) {
      if ((await subscriptions.expireLapsed(database, subscription.id, now)).changes === 0) continue;
      expired++;
      await queueSubscriptionEnded(database, subscription, subscription.end_date ?? now, now);
    }
    return expired;
  });
}
