import type { Database } from "../../../db/database";
import { promos } from "../../../db/queries/promos";
import { subscriptions } from "../../../db/queries/subscriptions";

export type PromoOutcome = "applied" | "unknown" | "already-used";

/**
 * An operator promo code: its discount on the current subscription, once per customer.
 * Runs inside the caller's transaction, so the discount compared is the one it replaces.
 */
export async function applyPromoCode(
  database: Database,
  userId: number,
  rawCode: string,
  now: number,
): Promise<PromoOutcome> {
  const promo = await promos.usable(database, rawCode.trim(), new Date(now).toISOString().slice(0, 10));
  const subscription = await subscriptions.current(database, userId);
  if (!promo || !subscription) return "unknown";
  if ((await promos.activate(database, promo.id, userId, now)).changes === 0) return "already-used";
  if (promo.discount_percent > subscription.promo_discount_percent) {
    await subscriptions.setPromo(database, subscription.id, promo.id, promo.discount_percent, now);
  }
  return "applied";
}
