import { isoTime } from "../../../core/date-time";
import type { Database } from "../../../db/database";
import { savedCards } from "../../../db/queries/saved-cards";
import { hasAccess, subscriptions } from "../../../db/queries/subscriptions";
import { AppError } from "../../platform/errors";
import { logger } from "../../platform/logger";
import { queueCardRemoved } from "../mail/events";
import { billingTurn } from "../subscriptions/billing-turn";
import { cardView } from "./card-view";

/**
 * Removes the saved card (DESIGN §13(b), the 2026 subscription law): every token of the
 * customer is forgotten, auto-renewal stops (the subscription becomes CANCELED, so the
 * renewal pass never picks it up) and access runs to the end of the paid period. One
 * transaction: either all of it happens or none. There is no gateway call to fail half
 * way: renewals are ours, and a token we no longer hold can never be charged.
 */
export async function removeSavedCard(database: Database, userId: number, now: number) {
  // In the billing turn: a renewal claim committed just before is seen as in flight here;
  // a plain transaction on PostgreSQL could miss it and remove the card under a charge.
  await database.inTurn(billingTurn, async () => {
    if (!(await savedCards.hasAnyToken(database, userId))) {
      throw new AppError("no_saved_card");
    }
    // A renewal or device charge already sent with this card would land after the
    // removal and look like a charge the customer had forbidden; let it settle first.
    if (await savedCards.hasChargeInFlight(database, userId)) {
      throw new AppError("card_payment_pending");
    }
    const { lastFour } = await savedCards.stateOf(database, userId);
    const current = await subscriptions.current(database, userId);
    if (current) await savedCards.stopRenewal(database, current.id, "customer", now);
    await savedCards.forget(database, userId, "customer", now);
    const accessUntil = hasAccess(current, now) ? (current?.end_date ?? null) : null;
    await queueCardRemoved(database, userId, { lastFour, accessUntil }, now);
  });
  logger.info("saved card removed by the customer", { userId });
  const subscription = await subscriptions.current(database, userId);
  return {
    success: true as const,
    subscriptionStatus: subscription?.status ?? "NOT_ACTIVE",
    subscriptionIsActive: hasAccess(subscription, now),
    expirationDate: isoTime(subscription?.end_date),
    card: await cardView(database, userId),
  };
}
