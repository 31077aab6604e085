import { describe, expect, test } from "vitest";
import { formatMoney } from "../../../core/money";
import { defaultPrices, savingPercent } from "../../../core/prices";
import { priceLabelKey } from "../../../src/lib/price-label";

describe("price label rule (spec §2)", () => {
  test("under 600 reads per month", () => {
    expect(priceLabelKey(150)).toBe("prices.perMonth");
    expect(priceLabelKey(599)).toBe("prices.perMonth");
  });

  test("exactly 600 reads per half-year", () => {
    expect(priceLabelKey(600)).toBe("prices.perHalfYear");
  });

  test("anything else reads per year", () => {
    expect(priceLabelKey(601)).toBe("prices.perYear");
    expect(priceLabelKey(1080)).toBe("prices.perYear");
  });

  test("a known period from the shop wins over guessing from the amount", () => {
    expect(priceLabelKey(900, 1)).toBe("prices.perMonth");
    expect(priceLabelKey(400, 3)).toBe("prices.perQuarter");
    expect(priceLabelKey(3500, 6)).toBe("prices.perHalfYear");
    expect(priceLabelKey(150, 12)).toBe("prices.perYear");
    expect(priceLabelKey(150, 7)).toBe("prices.perMonth");
  });
});

describe("prices and money", () => {
  test("the list prices of DESIGN §5 in minor units", () => {
    expect(defaultPrices.RUB.firstPayment).toBe(100);
    expect(defaultPrices.RUB.periods).toEqual({ 1: 15_000, 3: 40_000, 6: 60_000, 12: 108_000 });
    expect(defaultPrices.KZT.firstPayment).toBe(1_000);
    expect(defaultPrices.KZT.periods).toEqual({ 1: 90_000, 3: 240_000, 6: 350_000, 12: 640_000 });
  });

  test("amounts format as whole units with the currency sign", () => {
    expect(formatMoney(108_000, "RUB")).toBe("1\u202f080\u00a0₽");
    expect(formatMoney(1_000, "KZT")).toBe("10\u00a0₸");
    expect(formatMoney(12_345, "RUB")).toBe("123,45\u00a0₽");
  });

  test("longer periods show their saving against monthly payment", () => {
    expect(savingPercent(defaultPrices.RUB, 6)).toBe(33);
    expect(savingPercent(defaultPrices.RUB, 12)).toBe(40);
  });
});
