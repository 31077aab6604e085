import type { Database } from "bun:sqlite";
import { subscriptions } from "../../../db/queries/subscriptions";
import { AppError } from "../../platform/errors";

const view = (database: Database, userId: number) => {
  const subscription = subscriptions.current(database, userId);
  return {
    success: true as const,
    subscriptionStatus: subscription?.status ?? "NOT_ACTIVE",
    expirationDate: subscription?.end_date ? new Date(subscription.end_date).toISOString() : null,
  };
};

/** Turns auto-renewal off; access stays until the end of the paid period. */
export function cancelSubscription(database: Database, userId: number, now: number) {
  const current = subscriptions.current(database, userId);
  if (!current || subscriptions.cancel(database, current.id, now).changes === 0) {
    throw new AppError("CONFLICT", "There is no active subscription to cancel.");
  }
  return view(database, userId);
}

/** Turns auto-renewal back on for a cancelled subscription that is still running; charges nothing now. */
export function resumeSubscription(database: Database, userId: number, now: number) {
  const current = subscriptions.current(database, userId);
  // Without a saved card a resumed subscription could only fail at its renewal: coming
  // back after removing the card means paying with a card again (DESIGN §13(b)).
  if (current?.status === "CANCELED" && !current.card_token && current.card_removed_at) {
    throw new AppError(
      "CONFLICT",
      "There is no saved card to renew with. Your access stays open until the end of the paid period; after that, subscribe again and pay with a card.",
    );
  }
  if (!current || subscriptions.resume(database, current.id, now).changes === 0) {
    throw new AppError(
      "CONFLICT",
      "Only a cancelled subscription that is still running can be resumed; buy a new one instead.",
    );
  }
  return view(database, userId);
}
