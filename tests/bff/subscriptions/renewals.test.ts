import { describe, expect, test } from "vitest";
import { addMonths, dayMs } from "../../../bff/platform/calendar";
import { apiOf, dataOf, sessionOf } from "../../helpers/api";
import { makeTestApp } from "../../helpers/app";
import { demoToken, fixture, referralCodeOf, sessionCookieFrom, signIn } from "../../helpers/customers";
import { cards, ledger, order, passDays, payWithCard } from "../../helpers/payments";

type Renewal = { amount: number; status: string; created_at: number; invoice_id: string };

/** A customer who paid the first payment with `card`; returns what the tests need. */
async function paidCustomer(
  app: Awaited<ReturnType<typeof makeTestApp>>["app"],
  email: string,
  card: string,
  tariff = 1,
  period = 30,
  referralCode?: string,
) {
  const customer = await signIn(app, email, { referralCode });
  const options = await order(app, customer, tariff, period);
  const paid = await payWithCard(app, options.invoiceId, card);
  expect(paid.success).toBe(true);
  return { customer, options };
}

const renewalsOf = (
  database: Awaited<ReturnType<typeof makeTestApp>>["context"]["database"],
  accountId: string,
) =>
  database.all<Renewal>(
    "SELECT amount, status, created_at, invoice_id FROM payments WHERE account_id = ? AND kind = 'renewal' ORDER BY id",
    [accountId],
  );

const subscriptionOf = (
  database: Awaited<ReturnType<typeof makeTestApp>>["context"]["database"],
  accountId: string,
) =>
  database.get<{ status: string; end_date: number; next_charge_at: number | null; dunning_attempts: number }>(
    "SELECT status, end_date, next_charge_at, dunning_attempts FROM subscriptions WHERE user_id = ? ORDER BY id DESC LIMIT 1",
    [Number(accountId.replace("customer-", ""))],
  );

describe("trial, then renewals over twelve simulated months", () => {
  test.each([
    [1, 150, 12],
    [3, 400, 4],
    [6, 600, 2],
    [12, 1080, 1],
  ])(
    "tariff %i months: %i roubles, %i charges, each on its date",
    async (tariff, price, expectedCharges) => {
      const { app, context } = await makeTestApp();
      const { options } = await paidCustomer(app, `year${tariff}@example.com`, cards.success, tariff, 30);
      const trialEnd = context.clock.now() + 30 * dayMs;
      // Each period ends on the billing day, the first paid period's start (DESIGN §13): a
      // period that ended on a short month's last day is followed by one ending on that day
      // again, 30 January, 28 February, 30 March … Dues of a year, and the start of the next one.
      const dues = [trialEnd];
      for (let charge = 1; charge <= expectedCharges; charge++)
        dues.push(addMonths(trialEnd, charge * tariff));
      const yearEnd = dues.at(-1) ?? trialEnd;
      while (context.clock.now() < yearEnd - dayMs) {
        await passDays(app, 1);
      }
      const renewals = await renewalsOf(context.database, options.accountId);
      expect(renewals).toHaveLength(expectedCharges);
      renewals.forEach((renewal, index) => {
        expect(renewal).toMatchObject({ amount: price * 100, status: "completed" });
        const due = dues[index] ?? trialEnd;
        expect(renewal.created_at).toBeGreaterThanOrEqual(due);
        expect(renewal.created_at - due).toBeLessThan(dayMs);
      });
      const bank = (await ledger(app, options.accountId)).filter((entry) => entry.status === "Completed");
      expect(bank.map((entry) => entry.amount)).toEqual([1, ...Array(expectedCharges).fill(price)]);
      expect(await subscriptionOf(context.database, options.accountId)).toMatchObject({
        status: "ACTIVE",
        dunning_attempts: 0,
      });
      // A pass a day for a year: 2 minutes on PostgreSQL on a machine busy with other runs.
    },
    600_000,
  );
});

describe("discounts change what a renewal charges", () => {
  test("two invitees with active subscriptions take 50% off; a promo adds its own", async () => {
    const { app, context } = await makeTestApp();
    await context.database.run(
      "INSERT INTO promos (promo_code, promo_type, is_available, discount_percent, expiration_date, created_at) VALUES ('AUTUMN20', 'DISCOUNT', 1, 20, '2999-01-01', 0)",
    );
    const { customer, options } = await paidCustomer(
      app,
      "discounted@example.com",
      cards.success,
      1,
      1,
      "AUTUMN20",
    );
    const code = await referralCodeOf(app, customer);
    await fixture(app, { email: "friend-a@example.com", status: "ACTIVE", referralCode: code });
    await fixture(app, { email: "friend-b@example.com", status: "ACTIVE", referralCode: code });
    await passDays(app, 1.01);
    expect((await renewalsOf(context.database, options.accountId)).map((renewal) => renewal.amount)).toEqual([
      Math.round(150 * 0.3) * 100,
    ]);
  });

  test("at 100% the period is extended free with a zero receipt and no charge at the bank", async () => {
    const { app, context } = await makeTestApp();
    const { customer, options } = await paidCustomer(app, "free@example.com", cards.success, 1, 1);
    const code = await referralCodeOf(app, customer);
    for (const friend of ["f1", "f2", "f3", "f4"])
      await fixture(app, { email: `${friend}@example.com`, status: "ACTIVE", referralCode: code });
    const before = await subscriptionOf(context.database, options.accountId);
    expect(await passDays(app, 1.01)).toMatchObject({ free: 1, charged: 0 });
    expect(await renewalsOf(context.database, options.accountId)).toMatchObject([
      { amount: 0, status: "completed" },
    ]);
    expect((await subscriptionOf(context.database, options.accountId))?.end_date).toBe(
      addMonths(before?.end_date ?? 0, 1),
    );
    expect((await ledger(app, options.accountId)).map((entry) => entry.amount)).toEqual([1]);
  });
});

describe("dunning", () => {
  test("a card that pays first and is then declined is retried after 1 and 3 days, keeping access, then expires", async () => {
    const { app, context } = await makeTestApp();
    const { options } = await paidCustomer(app, "dunning@example.com", cards.firstThenDeclined, 1, 1);
    const due = (await subscriptionOf(context.database, options.accountId))?.end_date ?? 0;
    await passDays(app, 1.01);
    expect(await subscriptionOf(context.database, options.accountId)).toMatchObject({
      status: "ACTIVE",
      dunning_attempts: 1,
      next_charge_at: due + dayMs,
    });
    await passDays(app, 1);
    expect(await subscriptionOf(context.database, options.accountId)).toMatchObject({
      status: "ACTIVE",
      dunning_attempts: 2,
      next_charge_at: due + 3 * dayMs,
    });
    expect(await passDays(app, 1)).toMatchObject({ charged: 0 });
    await passDays(app, 1);
    expect((await subscriptionOf(context.database, options.accountId))?.status).toBe("EXPIRED");
    const bank = await ledger(app, options.accountId);
    expect(bank.filter((entry) => entry.status === "Declined")).toHaveLength(3);
    expect((await renewalsOf(context.database, options.accountId)).map((renewal) => renewal.status)).toEqual([
      "declined",
      "declined",
      "declined",
    ]);
    await passDays(app, 40);
    expect(await ledger(app, options.accountId)).toHaveLength(4);
  });

  test("the declining card on file walks through the same dunning to EXPIRED", async () => {
    const { app, context } = await makeTestApp();
    const { options } = await paidCustomer(app, "declining@example.com", cards.success, 1, 1);
    // The bank now declines this saved card (the declining test card behind the same token).
    context.payments.sandbox?.ledger.run("UPDATE cards SET card_number = '4012888888881881'");
    for (const days of [1.01, 1, 2]) {
      await passDays(app, days);
    }
    expect((await subscriptionOf(context.database, options.accountId))?.status).toBe("EXPIRED");
    expect(
      (await ledger(app, options.accountId)).filter((entry) => entry.status === "Declined"),
    ).toHaveLength(3);
  });

  test("a hard decline (expired card) is never retried", async () => {
    const { app, context } = await makeTestApp();
    const { options } = await paidCustomer(app, "hard@example.com", cards.expiredLater, 1, 1);
    await passDays(app, 1.01);
    expect((await subscriptionOf(context.database, options.accountId))?.status).toBe("EXPIRED");
    await passDays(app, 5);
    expect(
      (await ledger(app, options.accountId)).filter((entry) => entry.status === "Declined"),
    ).toHaveLength(1);
  });
});

describe("cancel and resume decide whether renewals happen", () => {
  test("a cancelled subscription is not charged and ends; a resumed one is charged on time", async () => {
    const { app, context } = await makeTestApp();
    const { subscriptions } = apiOf(app);
    // The e-mail alone names the account; the session decides.
    const cancelled = await paidCustomer(app, "stops@example.com", cards.success, 1, 1);
    const { customer: stops } = cancelled;
    await subscriptions.cancel.post({ email: stops.email }, sessionOf(stops));
    const resumed = await paidCustomer(app, "goes-on@example.com", cards.success, 1, 1);
    const { customer: goesOn } = resumed;
    await subscriptions.cancel.post({ email: goesOn.email }, sessionOf(goesOn));
    await subscriptions.resume.post({ email: goesOn.email }, sessionOf(goesOn));
    await passDays(app, 1.01);
    expect(await renewalsOf(context.database, cancelled.options.accountId)).toEqual([]);
    expect(
      (await renewalsOf(context.database, resumed.options.accountId)).map((renewal) => renewal.amount),
    ).toEqual([15_000]);
  });
});

describe("anonymous prepaid purchase", () => {
  test("binds to the account that signs up with its token, once; another account is told why", async () => {
    const { app } = await makeTestApp();
    const api = apiOf(app);
    const prepaidToken = `${"a1b2c3".repeat(5)}_1_1`;
    const options = await dataOf(api.shop.order.post({ prepaidToken, tariff: 1, period: 3 }));
    expect(options).toMatchObject({ accountId: prepaidToken, amount: 1 });
    expect((await payWithCard(app, options.invoiceId, cards.success)).success).toBe(true);

    const owner = await signIn(app, "prepaid-owner@example.com");
    const identity = await demoToken(app, "prepaid-owner@example.com");
    const bind = (token: typeof identity) =>
      api.register.post({ ...token, providerId: "google.com", period: 3, tariff: 1, prepaidToken });
    const first = await bind(identity);
    expect(first.status).toBe(200);
    expect(first.data).toMatchObject({
      success: true,
      subscriptionIsActive: true,
      prepaid: { bound: true },
    });
    const repeated = await bind(identity);
    expect(repeated.data).toMatchObject({ prepaid: { bound: true } });

    const other = await demoToken(app, "someone-else@example.com");
    // Refused, but never locked out: the other customer is signed in and told why.
    const refused = await bind(other);
    expect(refused.status).toBe(200);
    expect(refused.data).toMatchObject({
      success: true,
      subscriptionIsActive: false,
      prepaid: { bound: false, reason: expect.stringMatching(/already attached to another account/) },
    });
    expect(sessionCookieFrom(first.response)).not.toBe(owner.cookie);

    const again = await api.shop.order.post({ prepaidToken, tariff: 1, period: 3 });
    expect(again.status).toBe(409);
  });
});

describe("an unpaid anonymous order", () => {
  test("keeps its invoice when ordered again and takes the new plan", async () => {
    const { app, context } = await makeTestApp();
    const prepaidToken = `${"f0e1d2".repeat(5)}_30_12`;
    const { shop } = apiOf(app);
    const first = await dataOf(shop.order.post({ prepaidToken, tariff: 1, period: 3 }));
    const second = await dataOf(shop.order.post({ prepaidToken, tariff: 12, period: 30 }));
    expect(second.invoiceId).toBe(first.invoiceId);
    expect(second.description).toMatch(/30-day start, then a 12-month subscription/);
    const row = await context.database.get<{ tariff_months: number; trial_days: number; count: number }>(
      "SELECT tariff_months, trial_days, COUNT(*) OVER () AS count FROM payments",
    );
    expect(row).toEqual({ tariff_months: 12, trial_days: 30, count: 1 });
  });
});
