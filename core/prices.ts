import type { Currency } from "./money";

export type TariffMonths = 1 | 3 | 6 | 12;
export const tariffMonths: readonly TariffMonths[] = [1, 3, 6, 12];
/** The /instantPay selector offers only these (spec §5); the landing shows every tariff. */
export const selectableTariffs: readonly TariffMonths[] = [1, 6, 12];

export type PriceTable = {
  firstPayment: number;
  periods: Record<TariffMonths, number>;
  extraDevicePerMonth: number;
};

/** List prices in minor units (DESIGN §5); the server may override them by configuration. */
export const defaultPrices: Record<Currency, PriceTable> = {
  RUB: {
    firstPayment: 100,
    periods: { 1: 15_000, 3: 40_000, 6: 60_000, 12: 108_000 },
    extraDevicePerMonth: 5_000,
  },
  KZT: {
    firstPayment: 1_000,
    periods: { 1: 90_000, 3: 240_000, 6: 350_000, 12: 640_000 },
    extraDevicePerMonth: 30_000,
  },
};

/** How much a longer period saves against paying monthly, in whole percent. */
export function savingPercent(table: PriceTable, months: TariffMonths): number {
  const monthly = table.periods[1] * months;
  return Math.round(((monthly - table.periods[months]) / monthly) * 100);
}

/** What each invitee that counts takes off the inviter's price, in percent (DESIGN §5). */
export const referralPercentPerInvitee = 25;

/** An exact fraction of a price, 0 to 1: discounts stay exact until the amount is rounded. */
export type Share = { numerator: number; denominator: number };

/**
 * The referral discount on a period of `periodMonths` (DESIGN §13): a month of an invitee's
 * payment gives at most a month of discount, so each invitee gives 25% × min(1, its months
 * / the period's months), where its months are those its own current paid period covers;
 * capped at 100%. Four one-month invitees take one month's price off a year, not the year.
 */
export function referralShare(inviteeMonths: readonly number[], periodMonths: number): Share {
  const covered = inviteeMonths.reduce((sum, months) => sum + Math.min(periodMonths, Math.max(0, months)), 0);
  // 25% of one period = one quarter, so the share is covered months / (4 × period months).
  const denominator = (100 / referralPercentPerInvitee) * periodMonths;
  return { numerator: Math.min(denominator, covered), denominator };
}

/** The whole discount: promo percent (whole) plus the referral share, capped at 100%. */
export function discountShare(promoPercent: number, referral: Share): Share {
  const denominator = 100 * referral.denominator;
  const numerator = Math.max(0, promoPercent) * referral.denominator + 100 * referral.numerator;
  return { numerator: Math.min(denominator, numerator), denominator };
}

/**
 * A list price (minor units) after a discount, rounded half up to whole currency units
 * (112.5 → 113), in integers so that a half is decided exactly whatever the fraction.
 */
export function priceAfterDiscount(listPrice: number, discount: Share): number {
  const kept = listPrice * (discount.denominator - discount.numerator); // minor units × denominator
  const unit = 100 * discount.denominator; // one currency unit × denominator
  return Math.floor((kept + unit / 2) / unit) * 100;
}

/** A share in percent, for display and the API's fractions (never for computing an amount). */
export const percentOf = (share: Share): number => (share.numerator * 100) / share.denominator;
