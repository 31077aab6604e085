import { addMonths, dayMs } from "./calendar";
import { fractionToPercent } from "./money";

/**
 * What an operator's promo code may be (spec §5). The panel's form checks these before it
 * asks, the server again on every creation: the form's field errors and the server's
 * refusal codes are the same rules.
 */
export const promoCodeMinLength = 5;
export const promoDiscountPercents = { min: 20, max: 50, step: 5 } as const;
export const promoValidityMonths = { min: 1, max: 12 } as const;

/** The kinds of promo code an operator may create (named in core/i18n); support staff may create none. */
export const promoTypes = [{ type: "DISCOUNT" }] as const;

/** Letters, digits, `_` and `-`: a code is stored upper case. */
const codeCharacters = /^[A-Z0-9_-]+$/;

/** A code as the form lets it be typed: upper case, any other character dropped. */
export const normalizePromoCode = (raw: string) => raw.toUpperCase().replace(/[^A-Z0-9_-]/g, "");

/** A code as the server keeps it: trimmed, upper case (characters outside the rule refused). */
export const storedPromoCode = (raw: string) => raw.trim().toUpperCase();

export function promoCodeProblem(
  code: string,
): "promo_code_too_short" | "promo_code_invalid_characters" | undefined {
  if (code.length < promoCodeMinLength) return "promo_code_too_short";
  return codeCharacters.test(code) ? undefined : "promo_code_invalid_characters";
}

export const isPromoType = (type: string) => promoTypes.some((kind) => kind.type === type);

/** 20 to 50 whole percent, in steps of 5. */
export function isPromoDiscountPercent(percent: number): boolean {
  const { min, max, step } = promoDiscountPercents;
  return Number.isInteger(percent) && percent >= min && percent <= max && percent % step === 0;
}

/**
 * The API states a discount as a fraction (0.35), which binary makes 35.000…01 percent:
 * it is that whole percent when within a rounding error of one, else none.
 */
function wholePercentOf(fraction: number): number | undefined {
  const asked = fractionToPercent(fraction);
  const percent = Math.round(asked);
  return Math.abs(asked - percent) > 1e-9 ? undefined : percent;
}

export const isPromoValidityMonths = (months: number) =>
  Number.isInteger(months) && months >= promoValidityMonths.min && months <= promoValidityMonths.max;

/** The last day of a promo valid for `months` whole months from `now`'s day (YYYY-MM-DD, UTC). */
export const expirationAfter = (months: number, now: number): string =>
  new Date(addMonths(now, months)).toISOString().slice(0, 10);

/**
 * Whether an expiry date (YYYY-MM-DD) is a whole number of valid months from `now`'s day,
 * give or take a day: the operator's browser may be a time zone away from the server.
 */
export function isPromoExpiration(expirationDate: string, now: number): boolean {
  const expiration = Date.parse(`${expirationDate}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(expirationDate) || Number.isNaN(expiration)) return false;
  const today = Date.parse(`${new Date(now).toISOString().slice(0, 10)}T00:00:00Z`);
  for (let months = promoValidityMonths.min; months <= promoValidityMonths.max; months++) {
    if (Math.abs(addMonths(today, months) - expiration) <= dayMs) return true;
  }
  return false;
}

export type PromoProblem =
  | "promo_code_too_short"
  | "promo_code_invalid_characters"
  | "promo_type_unknown"
  | "promo_discount_out_of_range"
  | "promo_validity_out_of_range";

/** A creation request's first broken rule (the server's refusal), or nothing. */
export function newPromoProblem(
  promo: { promoCode: string; promoType: string; discount: number; expirationDate: string },
  now: number,
): PromoProblem | undefined {
  const codeProblem = promoCodeProblem(storedPromoCode(promo.promoCode));
  if (codeProblem) return codeProblem;
  if (!isPromoType(promo.promoType)) return "promo_type_unknown";
  const percent = wholePercentOf(promo.discount);
  if (percent === undefined || !isPromoDiscountPercent(percent)) return "promo_discount_out_of_range";
  return isPromoExpiration(promo.expirationDate, now) ? undefined : "promo_validity_out_of_range";
}

export type PromoField = "code" | "discount" | "validity";

/** The form's fields that break a rule: a percent and a number of months, as the form asks them. */
export function promoFieldErrors(
  code: string,
  discountPercent: number,
  months: number,
): Partial<Record<PromoField, true>> {
  const errors: Partial<Record<PromoField, true>> = {};
  if (promoCodeProblem(code)) errors.code = true;
  if (!isPromoDiscountPercent(discountPercent)) errors.discount = true;
  if (!isPromoValidityMonths(months)) errors.validity = true;
  return errors;
}
