/** Spec §5 promo rules, for the form; the server enforces the same with the same messages. */
export type PromoField = "code" | "discount" | "validity";

export const normalizePromoCode = (raw: string) => raw.toUpperCase().replace(/[^A-Z0-9_-]/g, "");

export function promoFieldErrors(
  code: string,
  discount: number,
  months: number,
): Partial<Record<PromoField, true>> {
  const errors: Partial<Record<PromoField, true>> = {};
  if (code.length < 5) errors.code = true;
  if (!Number.isInteger(discount) || discount < 20 || discount > 50 || discount % 5 !== 0)
    errors.discount = true;
  if (!Number.isInteger(months) || months < 1 || months > 12) errors.validity = true;
  return errors;
}

/** The last day of a promo valid for `months` whole months from today (YYYY-MM-DD, UTC). */
export function expirationAfter(months: number, now = Date.now()): string {
  const date = new Date(now);
  const day = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, lastDay));
  return date.toISOString().slice(0, 10);
}
