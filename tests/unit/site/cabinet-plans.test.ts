import { describe, expect, test } from "vitest";
import type { ShopData } from "../../../src/stores/cabinet";
import { chosenPlan, shopForPlan } from "../../../src/stores/charge-terms";

const plan = (months: 1 | 3 | 6 | 12, price: number) => ({
  months,
  price,
  listPrice: price,
  savingPercent: 0,
  firstPayment: 1,
  firstCharge: { date: "2026-12-01T00:00:00.000Z", amount: price },
});

const shop = {
  success: true,
  firstPayment: 1,
  monthlyPayment: 150,
  strikethroughPrice: 150,
  discount: 0,
  referralDiscount: 0,
  promoDiscount: 0,
  periodMonths: 1,
  currency: "RUB",
  devicePrice: 50,
  trial: true,
  trialDays: 1,
  firstCharge: { date: "2026-12-01T00:00:00.000Z", amount: 150 },
  plans: [plan(1, 150), plan(3, 400), plan(6, 600), plan(12, 1080)],
} satisfies ShopData;

describe("the cabinet's plan choice", () => {
  test("the stored tariff picks the plan; an unknown one falls back to the shop's period", () => {
    expect(chosenPlan(shop, "6")?.months).toBe(6);
    expect(chosenPlan(shop, "")?.months).toBe(1);
    expect(chosenPlan(shop, "7")?.months).toBe(1);
  });

  test("the terms are read from the chosen plan, so what is shown is what is ordered", () => {
    const sixMonths = shopForPlan(shop, chosenPlan(shop, "6"));
    expect(sixMonths).toMatchObject({ periodMonths: 6, monthlyPayment: 600, firstCharge: { amount: 600 } });
    expect(shopForPlan(shop, undefined)).toBe(shop);
  });
});
