import { describe, expect, test } from "vitest";
import { discountShare, percentOf, priceAfterDiscount, referralShare } from "../../../core/prices";

const year = 108_000;
const month = 15_000;
/** A renewal's amount by DESIGN §13: list × (1 − min(1, promo + referral)), half up. */
const renewal = (list: number, promoPercent: number, inviteeMonths: number[], periodMonths: number) =>
  priceAfterDiscount(list, discountShare(promoPercent, referralShare(inviteeMonths, periodMonths)));

describe("a month of an invitee's payment gives at most a month of discount (DESIGN §13)", () => {
  test("four one-month invitees take one month's price off a 1,080 ₽ year: 990 ₽, not free", () => {
    expect(renewal(year, 0, [1, 1, 1, 1], 12)).toBe(99_000);
    expect(percentOf(referralShare([1, 1, 1, 1], 12))).toBeCloseTo(100 / 12, 10);
  });

  test("the same four make a monthly period free", () => {
    expect(renewal(month, 0, [1, 1, 1, 1], 1)).toBe(0);
    expect(percentOf(referralShare([1, 1, 1, 1], 1))).toBe(100);
  });

  test("an invitee paying for the period or longer gives the full 25%", () => {
    expect(percentOf(referralShare([12], 12))).toBe(25);
    expect(renewal(year, 0, [12], 12)).toBe(81_000);
    expect(percentOf(referralShare([12], 1))).toBe(25); // a year's payer gives no more than 25% a month
    expect(percentOf(referralShare([6, 3], 6))).toBe(25 + 12.5);
  });

  test("the referral part stops at 100%, and promo plus referral stops at 100%", () => {
    expect(percentOf(referralShare([12, 12, 12, 12, 12], 12))).toBe(100);
    expect(
      renewal(
        year,
        0,
        Array.from({ length: 48 }, () => 1),
        12,
      ),
    ).toBe(0);
    expect(renewal(year, 50, [12, 12, 12], 12)).toBe(0);
    expect(percentOf(discountShare(50, referralShare([12, 12, 12], 12)))).toBe(100);
  });

  test("amounts round half up to whole units, exactly even when the share is a twelfth", () => {
    expect(renewal(month, 25, [], 1)).toBe(11_300); // 112.5 → 113
    // One monthly invitee on a year: 1,080 × (1 − 1/48) = 1,057.5 → 1,058.
    expect(renewal(year, 0, [1], 12)).toBe(105_800);
    expect(renewal(year, 35, [], 12)).toBe(70_200);
    expect(renewal(40_000 + 2 * 5_000 * 3, 0, [3], 3)).toBe(52_500);
  });

  test("no discount leaves the list price; odd months and no invitees are harmless", () => {
    expect(renewal(year, 0, [], 12)).toBe(year);
    expect(renewal(year, 0, [0], 12)).toBe(year);
    expect(percentOf(referralShare([], 3))).toBe(0);
  });
});
