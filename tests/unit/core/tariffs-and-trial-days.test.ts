import { describe, expect, test } from "vitest";
import { isTariffMonths, isTrialDays, tariffMonths } from "../../../core/prices";

describe("what a sign-up or an order may ask for (spec §5)", () => {
  test("a tariff is 1, 3, 6 or 12 months, and nothing else", () => {
    for (const months of tariffMonths) expect(isTariffMonths(months), String(months)).toBe(true);
    for (const months of [0, 2, 4, 5, 7, 11, 13, 24, -1, 1.5, Number.NaN])
      expect(isTariffMonths(months), String(months)).toBe(false);
  });

  test("a trial is 1 to 30 whole days", () => {
    for (const days of [1, 2, 15, 29, 30]) expect(isTrialDays(days), String(days)).toBe(true);
    for (const days of [0, 31, -1, 1.5, 29.9, Number.NaN, Number.POSITIVE_INFINITY])
      expect(isTrialDays(days), String(days)).toBe(false);
  });
});
