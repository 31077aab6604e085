import { addMonthsOnDay, dayMs, dayOfMonth } from "./calendar";
import { asPercent, type Currency, partOfAmount, toMinorUnits } from "./money";

export type TariffMonths = 1 | 3 | 6 | 12;
export const tariffMonths: readonly TariffMonths[] = [1, 3, 6, 12];
/** The /instantPay selector offers only these (spec §5); the landing shows every tariff. */
export const selectableTariffs: readonly TariffMonths[] = [1, 6, 12];

export const isTariffMonths = (months: number): months is TariffMonths =>
  (tariffMonths as readonly number[]).includes(months);

/** The trial a sign-up or an order may ask for (the stored `period`): 1 to 30 whole days. */
export const isTrialDays = (days: number): boolean => Number.isInteger(days) && days >= 1 && days <= 30;

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
  return Math.round(asPercent(monthly - table.periods[months], monthly));
}

/** What a customer signs up for: the tariff, the trial days and the list prices (minor units). */
export type Plan = {
  tariffMonths: TariffMonths;
  trialDays: number;
  currency: Currency;
  firstPayment: number;
  periodPrice: number;
};

/** The plan of a tariff in a currency: the first payment and the tariff's list price. */
export function planFor(currency: Currency, tariffMonths: TariffMonths, trialDays: number): Plan {
  const table = defaultPrices[currency];
  return {
    tariffMonths,
    trialDays,
    currency,
    firstPayment: table.firstPayment,
    periodPrice: table.periods[tariffMonths],
  };
}

/** List price of one period with the bought extra device slots, each at its monthly price. */
export function listPriceOfPeriod(period: {
  periodPrice: number;
  tariffMonths: number;
  extraDevices: number;
  currency: Currency;
}): number {
  const devicePrice = defaultPrices[period.currency].extraDevicePerMonth;
  return period.periodPrice + period.extraDevices * devicePrice * period.tariffMonths;
}

/**
 * What one more device slot costs for the rest of the paid period (minor units): the
 * monthly slot price for each whole billing month left, plus the share of the month now
 * running that is left, counted on that month's real length (so a part of a month never
 * costs more than the month). Billing months end on `billingDay` (the subscription's
 * anchor, DESIGN §13; by default the period end's own day), counted back from the period's
 * end. Rounded half up to whole currency units like every charge, at least one unit: the
 * purchase screen states this figure and the charge is this figure. Renewals then include
 * the slot at its full monthly price.
 */
export function proRataDevicePrice(
  monthlyPrice: number,
  periodEnd: number,
  now: number,
  billingDay: number = dayOfMonth(periodEnd),
): number {
  const minimum = toMinorUnits(1);
  if (periodEnd <= now) return minimum;
  // The month boundaries before the end: the end itself, then one billing month back each.
  const boundary = (monthsBack: number) =>
    monthsBack === 0 ? periodEnd : addMonthsOnDay(periodEnd, -monthsBack, billingDay);
  let wholeMonths = 0;
  while (boundary(wholeMonths + 1) > now) wholeMonths++;
  const monthEnd = boundary(wholeMonths);
  const monthLength = monthEnd - boundary(wholeMonths + 1);
  // Exact integers: monthly × (whole months + left / length), decided half up once.
  const price = partOfAmount(monthlyPrice, wholeMonths * monthLength + (monthEnd - now), monthLength);
  return Math.max(minimum, price);
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
export const priceAfterDiscount = (listPrice: number, discount: Share): number =>
  partOfAmount(listPrice, discount.denominator - discount.numerator, discount.denominator);

/** A share in percent, for display and the API's fractions (never for computing an amount). */
export const percentOf = (share: Share): number => asPercent(share.numerator, share.denominator);

/** What a customer's discount is made of: it depends on the period it is applied to. */
export type DiscountBasis = { promoPercent: number; inviteeMonths: number[] };

export type Discount = {
  /** The months of the period this discount is for. */
  periodMonths: number;
  referralPercent: number;
  promoPercent: number;
  totalPercent: number;
  /** The exact total, which amounts are computed from (priceAfterDiscount). */
  total: Share;
};

/**
 * The discount on a period of `periodMonths`: promo plus referral, capped at 100% (then the
 * period is free). Referral: 25% per counting invitee, prorated per month when the invitee
 * pays for fewer months than the period (referralShare), capped at 100%.
 */
export function discountFor(basis: DiscountBasis, periodMonths: number): Discount {
  const referral = referralShare(basis.inviteeMonths, periodMonths);
  const total = discountShare(basis.promoPercent, referral);
  return {
    periodMonths,
    referralPercent: percentOf(referral),
    promoPercent: basis.promoPercent,
    totalPercent: percentOf(total),
    total,
  };
}

/** What a first order takes now and charges first; amounts in the caller's one unit. */
export type FirstOrderCharges = {
  amountNow: number;
  /** The first full charge: its moment and amount. Without a trial that is now. */
  firstCharge: { at: number; amount: number };
};

/**
 * A first order's charges (DESIGN §13): with the trial, the 1-unit payment now and the
 * period's price (after discounts) `trialDays` days later; without, the period's price now.
 * A card must be saved for the renewals, so a first payment without a trial never goes
 * below the 1-unit payment, even at 100% off.
 */
export function firstOrderCharges(order: {
  isTrial: boolean;
  firstPayment: number;
  periodPrice: number;
  trialDays: number;
  now: number;
}): FirstOrderCharges {
  const { isTrial, firstPayment, periodPrice, now } = order;
  const amountNow = isTrial ? firstPayment : Math.max(periodPrice, firstPayment);
  return {
    amountNow,
    firstCharge: {
      at: isTrial ? now + order.trialDays * dayMs : now,
      amount: isTrial ? periodPrice : amountNow,
    },
  };
}
