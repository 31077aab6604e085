import { describe, expect, test } from "vitest";
import { formatAmount, parseAmount } from "../../../bff/adapters/cloudpayments/notification";
import {
  asPercent,
  exactMinorUnits,
  formatMoney,
  fractionToPercent,
  partOfAmount,
  percentToFraction,
  roundToWholeUnits,
  toCurrencyUnits,
  toMinorUnits,
} from "../../../core/money";

describe("minor units to currency units, for answers and the gateway", () => {
  test("kopecks and tiyn become roubles and tenge", () => {
    expect(toCurrencyUnits(15_000)).toBe(150);
    expect(toCurrencyUnits(1)).toBe(0.01);
    expect(toCurrencyUnits(12_345)).toBe(123.45);
    expect(toCurrencyUnits(0)).toBe(0);
    expect(toCurrencyUnits(-5_000)).toBe(-50);
  });

  test("the gateway's decimal text has two places", () => {
    expect(formatAmount(15_000)).toBe("150.00");
    expect(formatAmount(1)).toBe("0.01");
    expect(formatAmount(105_750)).toBe("1057.50");
  });
});

describe("currency units back to minor units, exact to the kopeck", () => {
  test("binary fractions below or above a kopeck still land on it", () => {
    // 0.29 × 100 is 28.999…96, 4.35 × 100 is 434.99…94, 1.1 × 100 is 110.00…01 in binary.
    expect(toMinorUnits(0.29)).toBe(29);
    expect(toMinorUnits(4.35)).toBe(435);
    expect(toMinorUnits(1.1)).toBe(110);
    expect(toMinorUnits(19.99)).toBe(1_999);
    expect(toMinorUnits(150)).toBe(15_000);
    expect(toMinorUnits(0)).toBe(0);
  });

  test("a half kopeck rounds up; 1.005 is below its half in binary and rounds down", () => {
    expect(toMinorUnits(0.125)).toBe(13);
    expect(toMinorUnits(1.005)).toBe(100);
  });

  test("every amount up to 20 000 units survives the way out and back", () => {
    for (let minor = 0; minor <= 2_000_000; minor += 1) {
      if (toMinorUnits(toCurrencyUnits(minor)) !== minor) throw new Error(`${minor} came back changed`);
    }
  });

  test("an amount that must be whole kopecks is refused when it is not", () => {
    expect(exactMinorUnits(150.25)).toBe(15_025);
    expect(exactMinorUnits(0.29)).toBe(29);
    expect(exactMinorUnits(0)).toBe(0);
    expect(exactMinorUnits(1.005)).toBeUndefined();
    expect(exactMinorUnits(150.001)).toBeUndefined();
    expect(exactMinorUnits(1e300)).toBeUndefined();
  });

  test("the gateway's text parses to the exact kopeck, and only plain decimals of two places do", () => {
    for (const whole of ["0", "1", "149", "1080", "999999999999"]) {
      for (let cents = 0; cents < 100; cents += 1) {
        const text = `${whole}.${String(cents).padStart(2, "0")}`;
        expect(parseAmount(text)).toBe(Number(whole) * 100 + cents);
      }
    }
    expect(parseAmount("150.1")).toBe(15_010);
    expect(parseAmount(" 150 ")).toBe(15_000);
    expect(parseAmount("1.005")).toBeUndefined();
    expect(parseAmount("1e3")).toBeUndefined();
    expect(parseAmount("-1.00")).toBeUndefined();
    expect(parseAmount("1000000000000.00")).toBeUndefined();
  });
});

describe("rounding to whole currency units", () => {
  test("half up", () => {
    expect(roundToWholeUnits(2_550)).toBe(2_600);
    expect(roundToWholeUnits(2_549)).toBe(2_500);
    expect(roundToWholeUnits(250)).toBe(300);
    expect(roundToWholeUnits(0)).toBe(0);
  });

  test("a part of an amount is decided exactly at the half (112.5 → 113)", () => {
    expect(partOfAmount(15_000, 3, 4)).toBe(11_300);
    expect(partOfAmount(108_000, 47, 48)).toBe(105_800); // 1,057.5 → 1,058
    expect(partOfAmount(45_000, 1, 3)).toBe(15_000);
    expect(partOfAmount(100, 1, 2)).toBe(100);
    expect(partOfAmount(108_000, 0, 12)).toBe(0);
    expect(partOfAmount(108_000, 12, 12)).toBe(108_000);
  });
});

describe("percent arithmetic", () => {
  test("a share as percent is exact where the share is", () => {
    expect(asPercent(1, 4)).toBe(25);
    expect(asPercent(1, 8)).toBe(12.5);
    expect(asPercent(0, 5)).toBe(0);
    expect(asPercent(1, 12)).toBeCloseTo(100 / 12, 12);
  });

  test("the API's discount fractions and back", () => {
    expect(percentToFraction(25)).toBe(0.25);
    expect(percentToFraction(12.5)).toBe(0.125);
    expect(fractionToPercent(0.25)).toBe(25);
    expect(Math.round(fractionToPercent(0.35))).toBe(35);
    expect(Math.abs(fractionToPercent(0.35) - 35)).toBeLessThan(1e-9);
  });
});

describe("formatMoney reads minor units", () => {
  test("whole units, kopecks when there are any, and a minus sign", () => {
    expect(formatMoney(108_000, "RUB")).toBe("1\u202f080\u00a0₽");
    expect(formatMoney(105_750, "RUB")).toBe("1\u202f057,50\u00a0₽");
    expect(formatMoney(-5_000, "KZT")).toBe("−50\u00a0₸");
  });
});
