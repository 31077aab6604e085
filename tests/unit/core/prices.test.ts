import { describe, expect, test } from "vitest";
import { dayMs } from "../../../core/calendar";
import type { Currency } from "../../../core/money";
import {
  defaultPrices,
  discountFor,
  firstOrderCharges,
  listPriceOfPeriod,
  planFor,
  priceAfterDiscount,
  proRataDevicePrice,
  savingPercent,
  type TariffMonths,
  tariffMonths,
} from "../../../core/prices";
import { chargeTerms, instantPayTerms } from "../../../src/lib/charge-terms";

describe("list price of a tariff and period (DESIGN §5)", () => {
  test.each([
    ["RUB", 1, 100, 15_000],
    ["RUB", 3, 100, 40_000],
    ["RUB", 6, 100, 60_000],
    ["RUB", 12, 100, 108_000],
    ["KZT", 1, 1_000, 90_000],
    ["KZT", 3, 1_000, 240_000],
    ["KZT", 6, 1_000, 350_000],
    ["KZT", 12, 1_000, 640_000],
  ] as const)("%s, %i months: first payment %i, period %i", (currency, months, first, period) => {
    expect(planFor(currency, months, 7)).toEqual({
      tariffMonths: months,
      trialDays: 7,
      currency,
      firstPayment: first,
      periodPrice: period,
    });
  });

  test("each extra device slot adds its monthly price for every month of the period", () => {
    expect(
      listPriceOfPeriod({ periodPrice: 108_000, tariffMonths: 12, extraDevices: 0, currency: "RUB" }),
    ).toBe(108_000);
    expect(
      listPriceOfPeriod({ periodPrice: 108_000, tariffMonths: 12, extraDevices: 2, currency: "RUB" }),
    ).toBe(108_000 + 2 * 5_000 * 12);
    expect(
      listPriceOfPeriod({ periodPrice: 240_000, tariffMonths: 3, extraDevices: 1, currency: "KZT" }),
    ).toBe(240_000 + 30_000 * 3);
  });

  test("the saving against paying monthly, in whole percent, in both currencies", () => {
    const savings = (currency: Currency) =>
      tariffMonths.map((months: TariffMonths) => savingPercent(defaultPrices[currency], months));
    expect(savings("RUB")).toEqual([0, 11, 33, 40]);
    expect(savings("KZT")).toEqual([0, 11, 35, 41]);
  });

  test("/instantPay states the same list prices, in currency units", () => {
    for (const currency of ["RUB", "KZT"] as const) {
      for (const tariff of tariffMonths) {
        const plan = planFor(currency, tariff, 30);
        const terms = instantPayTerms({ now: 0, trialDays: 30, tariff, currency });
        expect(terms.payNow * 100).toBe(plan.firstPayment);
        expect(terms.firstCharge.amount * 100).toBe(plan.periodPrice);
      }
    }
  });
});

describe("the discount: promo and referrals stacked, capped at 100% (DESIGN §5, §13)", () => {
  test("a promo and an invitee paying for the whole period add up", () => {
    const discount = discountFor({ promoPercent: 20, inviteeMonths: [12] }, 12);
    expect(discount).toMatchObject({
      periodMonths: 12,
      promoPercent: 20,
      referralPercent: 25,
      totalPercent: 45,
    });
    expect(priceAfterDiscount(108_000, discount.total)).toBe(59_400);
  });

  test("a one-month invitee on a year gives a twelfth of 25%, and the amount rounds half up", () => {
    const discount = discountFor({ promoPercent: 25, inviteeMonths: [1] }, 12);
    expect(discount.referralPercent).toBeCloseTo(25 / 12, 12);
    // 1,080 × (1 − 0.25 − 1/48) = 787.5 → 788.
    expect(priceAfterDiscount(108_000, discount.total)).toBe(78_800);
  });

  test("the same basis gives the full 25% on a monthly period", () => {
    const discount = discountFor({ promoPercent: 0, inviteeMonths: [1] }, 1);
    expect(discount.totalPercent).toBe(25);
    expect(priceAfterDiscount(15_000, discount.total)).toBe(11_300); // 112.5 → 113
  });

  test("promo plus referrals beyond 100% make the period free, never negative", () => {
    const discount = discountFor({ promoPercent: 30, inviteeMonths: [12, 12, 12] }, 12);
    expect(discount.totalPercent).toBe(100);
    expect(priceAfterDiscount(108_000, discount.total)).toBe(0);
  });

  test("no promo and no invitees leave the list price", () => {
    const discount = discountFor({ promoPercent: 0, inviteeMonths: [] }, 6);
    expect(discount.totalPercent).toBe(0);
    expect(priceAfterDiscount(60_000, discount.total)).toBe(60_000);
  });
});

describe("pro rata of a device slot for the rest of the period", () => {
  const at = (iso: string) => Date.parse(iso);

  test.each([
    ["January, 31 days", "2027-01-01T00:00:00Z", "2027-02-01T00:00:00Z"],
    ["February, 28 days", "2027-02-01T00:00:00Z", "2027-03-01T00:00:00Z"],
    ["February of a leap year, 29 days", "2028-02-01T00:00:00Z", "2028-03-01T00:00:00Z"],
    ["April, 30 days", "2027-04-01T00:00:00Z", "2027-05-01T00:00:00Z"],
  ])("a whole month of %s costs the monthly price, half of it half, never more", (_, start, end) => {
    const [from, to] = [at(start), at(end)];
    expect(proRataDevicePrice(5_000, to, from)).toBe(5_000);
    expect(proRataDevicePrice(30_000, to, from)).toBe(30_000);
    expect(proRataDevicePrice(5_000, to, from + (to - from) / 2)).toBe(2_500);
    for (let moment = from; moment < to; moment += dayMs / 4)
      expect(proRataDevicePrice(5_000, to, moment)).toBeLessThanOrEqual(5_000);
  });

  test("the days left are counted against the real month: one day is 50/31, 50/30, 50/28 of a rouble", () => {
    // 1.61, 1.67 and 1.79 roubles, each rounded half up to 2; 15 days of 31 are 24.19 → 24.
    expect(proRataDevicePrice(5_000, at("2027-02-01T00:00:00Z"), at("2027-01-31T00:00:00Z"))).toBe(200);
    expect(proRataDevicePrice(5_000, at("2027-05-01T00:00:00Z"), at("2027-04-30T00:00:00Z"))).toBe(200);
    expect(proRataDevicePrice(5_000, at("2027-03-01T00:00:00Z"), at("2027-02-28T00:00:00Z"))).toBe(200);
    expect(proRataDevicePrice(5_000, at("2027-02-01T00:00:00Z"), at("2027-01-17T00:00:00Z"))).toBe(2_400);
    expect(proRataDevicePrice(5_000, at("2027-03-01T00:00:00Z"), at("2027-02-15T00:00:00Z"))).toBe(2_500);
  });

  test("a longer period: each whole billing month left at the monthly price, plus the part of this one", () => {
    const end = at("2028-01-15T00:00:00Z");
    // 15 Jan 2027 → 15 Jan 2028: twelve whole months.
    expect(proRataDevicePrice(5_000, end, at("2027-01-15T00:00:00Z"))).toBe(60_000);
    // From 30 June: 6 whole months (15 July … 15 January) and 15 of June-July's 30 days.
    expect(proRataDevicePrice(5_000, end, at("2027-06-30T00:00:00Z"))).toBe(32_500);
  });

  test("billing months end on the anchor's day: on day 31 the month before 31 March began on 28 February", () => {
    const end = at("2027-03-31T00:00:00Z");
    // 28 Feb → 31 Mar is 31 days; 31 days left of it are the whole month.
    expect(proRataDevicePrice(5_000, end, at("2027-02-28T00:00:00Z"), 31)).toBe(5_000);
    // A period ending on 28 February with day 31 began on 31 January: 28 days.
    expect(proRataDevicePrice(5_000, at("2027-02-28T00:00:00Z"), at("2027-01-31T00:00:00Z"), 31)).toBe(5_000);
    expect(proRataDevicePrice(5_000, at("2027-02-28T00:00:00Z"), at("2027-02-14T00:00:00Z"), 31)).toBe(2_500);
  });

  test("a half unit rounds up, and it is never under one unit, even when the period is over", () => {
    const end = at("2027-05-01T00:00:00Z"); // April: 30 days
    expect(proRataDevicePrice(6_000, end, end - 0.75 * dayMs)).toBe(200); // 1.5 → 2
    expect(proRataDevicePrice(6_000, end, end - 0.5 * dayMs)).toBe(100);
    expect(proRataDevicePrice(5_000, end, end - 60_000)).toBe(100);
    expect(proRataDevicePrice(5_000, end, end + dayMs)).toBe(100);
  });
});

describe("first-order terms (DESIGN §13)", () => {
  const now = Date.parse("2026-11-21T10:00:00.000Z");

  test("with the trial: the 1-unit payment now, the period's price after the trial days", () => {
    expect(
      firstOrderCharges({ isTrial: true, firstPayment: 100, periodPrice: 11_300, trialDays: 30, now }),
    ).toEqual({
      amountNow: 100,
      firstCharge: { at: now + 30 * dayMs, amount: 11_300 },
    });
  });

  test("without: the period's price now, which is the first full charge", () => {
    expect(
      firstOrderCharges({ isTrial: false, firstPayment: 100, periodPrice: 11_300, trialDays: 30, now }),
    ).toEqual({ amountNow: 11_300, firstCharge: { at: now, amount: 11_300 } });
  });

  test("at 100% off the trial's charge is free, and an order without a trial still takes 1 unit to save the card", () => {
    expect(
      firstOrderCharges({ isTrial: true, firstPayment: 100, periodPrice: 0, trialDays: 1, now }).firstCharge,
    ).toEqual({
      at: now + dayMs,
      amount: 0,
    });
    expect(
      firstOrderCharges({ isTrial: false, firstPayment: 100, periodPrice: 0, trialDays: 1, now }),
    ).toEqual({
      amountNow: 100,
      firstCharge: { at: now, amount: 100 },
    });
  });

  test("the purchase screen states the same when the server gave no first charge", () => {
    const terms = chargeTerms({
      now,
      trialDays: 30,
      periodMonths: 1,
      currency: "RUB",
      firstPayment: 1,
      periodPrice: 0,
      hasTrial: false,
    });
    expect(terms.payNow).toBe(1);
    expect(terms.firstCharge).toEqual({ date: new Date(now).toISOString(), amount: 1 });
  });
});
