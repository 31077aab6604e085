import { describe, expect, test } from "vitest";
import { apiOf, dataOf, identityOf, refusalOf, sessionOf } from "../../helpers/api";
import { makeTestApp } from "../../helpers/app";
import { fixture, type SignedIn, signIn } from "../../helpers/customers";
import { cards, payWithCard } from "../../helpers/payments";

const { app, clock } = await makeTestApp();
const api = apiOf(app);

const shopOf = (customer: SignedIn) =>
  dataOf(api.shop.getShop.post(identityOf(customer), sessionOf(customer)));
const profileOf = (customer: SignedIn) => dataOf(api.profile.post(identityOf(customer), sessionOf(customer)));

function orderIn(customer: SignedIn, tariff: number, language = "en") {
  return dataOf(
    api.shop.order.post(
      { ...identityOf(customer), tariff, period: 7 },
      { headers: { cookie: `${customer.cookie}; i18next=${language}` } },
    ),
  );
}

describe("the shop prices every plan for the cabinet's choice", () => {
  test("1, 3, 6 and 12 months with list prices, savings and the trial terms of each", async () => {
    const customer = await signIn(app, "plans-new@example.com");
    const shop = await shopOf(customer);
    expect(shop.plans.map((plan) => plan.months)).toEqual([1, 3, 6, 12]);
    expect(shop.plans.map((plan) => plan.listPrice)).toEqual([150, 400, 600, 1080]);
    expect(shop.plans.map((plan) => plan.savingPercent)).toEqual([0, 11, 33, 40]);
    for (const plan of shop.plans) {
      expect(plan.price).toBe(plan.listPrice);
      expect(plan.firstPayment).toBe(1);
      expect(plan.firstCharge.amount).toBe(plan.price);
    }
  });

  test("an order for 6 months is the 6-month plan, and its first full charge is the 6-month price", async () => {
    const customer = await signIn(app, "plans-six@example.com");
    const order = await orderIn(customer, 6);
    expect(order).toMatchObject({ trial: true, amount: 1 });
    expect((await payWithCard(app, order.invoiceId, cards.success)).success).toBe(true);
    expect((await profileOf(customer)).userInfo.amount).toBe(600);
  });

  test("the widget's description is in the buyer's language", async () => {
    const customer = await signIn(app, "plans-lang@example.com");
    expect((await orderIn(customer, 12, "ru")).description).toMatch(/подписка на 12 мес/);
    expect((await orderIn(customer, 12, "kk")).description).toMatch(/12 айлық жазылым/);
    expect((await orderIn(customer, 12, "zh")).description).toMatch(/订阅 12 个月/);
    expect((await orderIn(customer, 12, "en")).description).toMatch(/12-month subscription/);
  });
});

describe("a former customer", () => {
  test("is told when the subscription ended and is offered the plans at full price, no trial", async () => {
    const { email } = await fixture(app, { email: "former@example.com", status: "EXPIRED" });
    // Signing in again opens a new, unpaid order row after the expired one.
    const customer = await signIn(app, email);
    const profile = await profileOf(customer);
    expect(profile.userInfo).toMatchObject({ subscriptionStatus: "NOT_ACTIVE", subscriptionIsActive: false });
    // Ended in the past of the test clock, which may run far ahead of the wall clock.
    expect(Date.parse(profile.userInfo.endedAt ?? "")).toBeLessThanOrEqual(clock.now());
    const shop = await shopOf(customer);
    expect(shop.trial).toBe(false);
    expect(shop.plans.map((plan) => plan.firstPayment)).toEqual([150, 400, 600, 1080]);
    expect((await orderIn(customer, 3)).amount).toBe(400);
  });

  test("a customer who never had a subscription has no end date", async () => {
    const customer = await signIn(app, "never@example.com");
    expect((await profileOf(customer)).userInfo.endedAt).toBeNull();
  });

  test("an active customer has no end date either", async () => {
    const { email } = await fixture(app, { email: "still-active@example.com", status: "ACTIVE" });
    const customer = await signIn(app, email);
    expect((await profileOf(customer)).userInfo.endedAt).toBeNull();
  });
});

test("a missing session is refused in the customer's language", async () => {
  const refusal = await refusalOf(
    api.profile.post({ email: "nobody@example.com" }, { headers: { cookie: "i18next=kk" } }),
  );
  expect(refusal.status).toBe(401);
  expect(refusal.message).toBe("Жалғастыру үшін кіріңіз.");
});
