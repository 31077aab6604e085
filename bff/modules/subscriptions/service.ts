import { isoTime } from "../../../core/date-time";
import type { Database } from "../../../db/database";
import { subscriptions } from "../../../db/queries/subscriptions";
import { AppError } from "../../platform/errors";
import { queueSubscriptionCanceled } from "../mail/events";

const view = async (database: Database, userId: number) => {
  const subscription = await subscriptions.current(database, userId);
  return {
    success: true as const,
    subscriptionStatus: subscription?.status ?? "NOT_ACTIVE",
    expirationDate: isoTime(subscription?.end_date),
  };
};

/** Turns auto-renewal off; access stays until the end of the paid period. The customer is told by mail. */
export async function cancelSubscription(database: Database, userId: number, now: number) {
  await database.transaction(async () => {
    const current = await subscriptions.current(database, userId);
    if (!current || (await subscriptions.cancel(database, current.id, now)).changes === 0) {
      throw new AppError("nothing_to_cancel");
    }
    const cancelled = await subscriptions.byId(database, current.id);
    if (cancelled) await queueSubscriptionCanceled(database, cancelled, now);
  });
  return view(database, userId);
}

/** Turns auto-renewal back on for a cancelled subscription that is still running; charges nothing now. */
export async function resumeSubscription(database: Database, userId: number, now: number) {
  // One transaction: the card check and the resume must see the same row, or a card
  // removed between them would leave a subscription renewing with nothing to charge.
  await database.transaction(async () => {
    const current = await subscriptions.current(database, userId);
    // Without a saved card a resumed subscription could only fail at its renewal: coming
    // back after removing the card means paying with a card again (DESIGN §13(b)).
    if (current?.status === "CANCELED" && !current.card_token && current.card_removed_at) {
      throw new AppError("no_card_to_renew_with");
    }
    if (!current || (await subscriptions.resume(database, current.id, now)).changes === 0) {
      throw new AppError("not_resumable");
    }
  });
  return view(database, userId);
}
