import { describe, expect, test } from "vitest";
import { addMonths } from "../../../../core/calendar";
import { apiOf, dataOf, identityOf, sessionOf } from "../../../helpers/api";
import { makeTestApp } from "../../../helpers/app";
import { type SignedIn, signIn } from "../../../helpers/customers";
import {
  advanceDays,
  cards,
  notifyAsGateway,
  order,
  passDays,
  payWithCard,
  type WidgetOptions,
} from "../../../helpers/payments";

const { app, context, clock } = await makeTestApp();
const secret = context.config.cloudPaymentsApiSecret;
const dayMs = 86_400_000;

const api = apiOf(app);

const orderWithLanguage = (customer: SignedIn, language: string, tariff = 1, period = 30) =>
  dataOf(
    api.shop.order.post(
      { ...identityOf(customer), tariff, period },
      { headers: { cookie: `${customer.cookie}; i18next=${language}` } },
    ),
  );

const shopOf = (customer: SignedIn) =>
  dataOf(api.shop.getShop.post(identityOf(customer), sessionOf(customer)));

const profileOf = async (customer: SignedIn) =>
  (await dataOf(api.profile.post(identityOf(customer), sessionOf(customer)))).userInfo;

/** A signed gateway notification carrying the card as CloudPayments describes it; answers its code. */
async function notify(
  kind: "check" | "pay",
  options: WidgetOptions,
  card: { firstSix: string; lastFour: string; expiry: string },
) {
  const answer = await notifyAsGateway(app, secret, kind, {
    TransactionId: String(60_000_000 + Math.floor(Math.random() * 1_000_000)),
    Amount: options.amount.toFixed(2),
    Currency: "RUB",
    InvoiceId: options.invoiceId,
    AccountId: options.accountId,
    Token: `tk_${card.lastFour}_${card.expiry.replace("/", "")}`,
    CardFirstSix: card.firstSix,
    CardLastFour: card.lastFour,
    CardExpDate: card.expiry,
    Status: "Completed",
  });
  return answer.code;
}

describe("the trial is once per customer", () => {
  test("a first order is the 1-unit trial, and the shop says when and what the first full charge is", async () => {
    const customer = await signIn(app, "first-trial@example.com", { period: 30, tariff: 1 });
    const shop = await shopOf(customer);
    expect(shop).toMatchObject({ trial: true, firstPayment: 1, trialDays: 30 });
    expect(shop.noTrialReason).toBeUndefined();
    expect(shop.firstCharge.amount).toBe(150);
    expect(Math.abs(Date.parse(shop.firstCharge.date) - (clock.now() + 30 * dayMs))).toBeLessThan(5000);
    const options = await order(app, customer);
    expect(options).toMatchObject({ trial: true, amount: 1 });
  });

  test("a customer who had the trial pays the plan's price at once, told why in their language", async () => {
    const customer = await signIn(app, "second-trial@example.com", { period: 3, tariff: 1 });
    const first = await order(app, customer, 1, 3);
    expect((await payWithCard(app, first.invoiceId, cards.firstThenDeclined)).success).toBe(true);
    // The trial ends, the renewal is declined through dunning, and the subscription expires.
    for (const days of [4, 1.5, 2.5]) {
      await passDays(app, days);
    }
    expect((await profileOf(customer)).subscriptionStatus).toBe("EXPIRED");

    const shop = await shopOf(customer);
    expect(shop).toMatchObject({ trial: false, firstPayment: 150, firstCharge: { amount: 150 } });
    expect(shop.noTrialReason).toMatch(/trial/);
    const again = await orderWithLanguage(customer, "ru");
    expect(again).toMatchObject({ trial: false, amount: 150 });
    expect(again.reason).toMatch(/пробн/);

    const payingFrom = clock.now();
    expect((await payWithCard(app, again.invoiceId, cards.success)).success).toBe(true);
    const payingUntil = clock.now();
    const profile = await profileOf(customer);
    expect(profile.subscriptionStatus).toBe("ACTIVE");
    // The payment bought the first month itself: a calendar month from the moment it was
    // paid (some instant while the payment ran), not trial days and not a fixed 30 days.
    const end = Date.parse(profile.expirationDate ?? "");
    expect(end).toBeGreaterThanOrEqual(addMonths(payingFrom, 1));
    expect(end).toBeLessThanOrEqual(addMonths(payingUntil, 1));
  });
});

describe("the trial is once per card", () => {
  const card = { firstSix: "424242", lastFour: "4242", expiry: "12/29" };

  test("a 1-unit payment with a card that already had a trial is refused at Check (13)", async () => {
    const anna = await signIn(app, "anna-card@example.com");
    const annaOrder = await order(app, anna);
    expect(await notify("check", annaOrder, card)).toBe(0);
    expect(await notify("pay", annaOrder, card)).toBe(0);
    expect((await profileOf(anna)).subscriptionStatus).toBe("ACTIVE");

    const boris = await signIn(app, "boris-card@example.com");
    const borisOrder = await order(app, boris);
    expect(borisOrder.trial).toBe(true);
    expect(await notify("check", borisOrder, card)).toBe(13);
    // Another card is fine, and the same number with another expiry is another card.
    expect(await notify("check", borisOrder, { ...card, expiry: "01/30" })).toBe(0);
  });

  test("a full-price first payment with a card that had a trial is accepted", async () => {
    const customer = await signIn(app, "carla-card@example.com", { period: 1 });
    const trial = await order(app, customer, 1, 1);
    const carlaCard = { firstSix: "555555", lastFour: "4444", expiry: "03/28" };
    expect(await notify("pay", trial, carlaCard)).toBe(0);
    await advanceDays(app, 1.5);
    // Expire by hand: this test is about the Check of the next order only.
    await context.database.run(
      "UPDATE subscriptions SET status = 'EXPIRED' WHERE user_id = (SELECT id FROM users WHERE email = ?)",
      [customer.email],
    );
    const full = await order(app, customer);
    expect(full.trial).toBe(false);
    expect(await notify("check", full, carlaCard)).toBe(0);
  });
});
