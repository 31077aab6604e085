import type { LimitKey } from "../../platform/attempt-limit";

/** Promo guessing (DESIGN §12): 10 wrong codes per customer and 30 per address an hour. */
export const promoLimits = { customer: 10, address: 30 } as const;
const windowMs = 60 * 60 * 1000;

export function promoLimitKeys(userId: number, address: string): LimitKey[] {
  return [
    { key: `promo:customer:${userId}`, limit: promoLimits.customer, windowMs },
    { key: `promo:address:${address}`, limit: promoLimits.address, windowMs },
  ];
}
