import type { LimitKey } from "../../platform/attempt-limit";
import type { LocalizedText } from "../../platform/errors";

/** Promo guessing (DESIGN §12): 10 wrong codes per customer and 30 per address an hour. */
export const promoLimits = { customer: 10, address: 30 } as const;
const windowMs = 60 * 60 * 1000;

export function promoLimitKeys(userId: number, address: string): LimitKey[] {
  return [
    { key: `promo:customer:${userId}`, limit: promoLimits.customer, windowMs },
    { key: `promo:address:${address}`, limit: promoLimits.address, windowMs },
  ];
}

/** "минуту", "минуты" or "минут", as Russian says it after the number. */
export function russianMinutes(minutes: number): string {
  const lastTwo = minutes % 100;
  const last = minutes % 10;
  if (last === 1 && lastTwo !== 11) return "минуту";
  if (last >= 2 && last <= 4 && (lastTwo < 12 || lastTwo > 14)) return "минуты";
  return "минут";
}

/** Shown on the purchase screen, in the customer's language. */
export const tooManyPromoCodes = (minutes: number): LocalizedText => ({
  en: `Too many wrong promo codes. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
  ru: `Слишком много неверных промокодов. Попробуйте снова через ${minutes} ${russianMinutes(minutes)}.`,
  zh: `输入错误的优惠码次数过多，请在 ${minutes} 分钟后重试。`,
  kk: `Қате промокод тым көп рет енгізілді. ${minutes} минуттан кейін қайталап көріңіз.`,
});
