import { describe, expect, test } from "vitest";
import { apiOf, dataOf, staffOf } from "../../helpers/api";
import { makeTestApp } from "../../helpers/app";
import { makeOperator, tokensFor } from "../../helpers/operators";

/** DESIGN §16: the dashboard's numbers against a seeded set whose answers are known. */
const at = (text: string) => Date.parse(`${text}Z`);

async function seeded() {
  const testApp = await makeTestApp();
  const { database } = testApp.context;
  for (const id of [1, 2, 3, 4])
    await database.run(
      "INSERT INTO users (id, provider_id, uid, email, currency, created_at) VALUES (?, 'demo', ?, ?, 'RUB', ?)",
      [id, `u${id}`, `user${id}@example.com`, at("2026-02-01T00:00:00")],
    );
  const subscription = (id: number, currency: "RUB" | "KZT", status: string, start: string, end: string) =>
    database.run(
      `INSERT INTO subscriptions (id, user_id, status, tariff_months, trial_days, currency, first_payment,
         period_price, first_payment_paid, start_date, end_date, created_at, updated_at)
       VALUES (?, ?, ?, 1, 1, ?, 100, 15000, 1, ?, ?, ?, ?)`,
      [id, id, status, currency, at(start), at(end), at(start), at(start)],
    );
  // S1: since February, through April. S2: 10–20 March, then gone. S3: from 15 March, renewed.
  // S4: 10 February to 8 March, then gone: the one March loses of those it began with.
  await subscription(1, "RUB", "ACTIVE", "2026-02-20T00:00:00", "2026-04-20T00:00:00");
  await subscription(2, "RUB", "EXPIRED", "2026-03-10T08:00:00", "2026-03-20T00:00:00");
  await subscription(3, "KZT", "ACTIVE", "2026-03-15T12:00:00", "2026-05-15T12:00:00");
  await subscription(4, "RUB", "EXPIRED", "2026-02-10T00:00:00", "2026-03-08T00:00:00");
  let invoice = 0;
  const payment = (
    subscriptionId: number,
    kind: string,
    currency: string,
    amount: number,
    status: string,
    time: string,
    more: { isTrial?: boolean; refunded?: number; refundedAt?: string; declineReason?: string } = {},
  ) =>
    database.run(
      `INSERT INTO payments (user_id, subscription_id, kind, invoice_id, account_id, amount, currency,
         description, status, is_trial, refunded_amount, refunded_at, decline_reason, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, 'seeded', ?, ?, ?, ?, ?, ?, ?)`,
      [
        subscriptionId,
        subscriptionId,
        kind,
        `seed-${++invoice}`,
        `customer-${subscriptionId}`,
        amount,
        currency,
        status,
        more.isTrial ? 1 : 0,
        more.refunded ?? 0,
        more.refundedAt ? at(more.refundedAt) : null,
        more.declineReason ?? null,
        at(time),
        at(time),
      ],
    );
  const trial = { isTrial: true };
  await payment(1, "first", "RUB", 100, "completed", "2026-02-20T00:00:00", trial); // before the range
  await payment(1, "renewal", "RUB", 15000, "completed", "2026-03-05T10:00:00");
  // S2 had a trial before: its first payment was not one, so it is no trial to convert.
  await payment(2, "first", "RUB", 100, "completed", "2026-03-10T08:00:00");
  await payment(2, "renewal", "RUB", 15000, "declined", "2026-03-12T09:00:00");
  // Not failures: an attempt a stopped server never sent, an order closed by a deletion.
  const notSent = { declineReason: "not sent to the gateway" };
  await payment(2, "renewal", "RUB", 15000, "declined", "2026-03-13T09:00:00", notSent);
  await payment(2, "first", "RUB", 100, "declined", "2026-03-14T09:00:00", {
    declineReason: "account deleted",
  });
  await payment(3, "first", "KZT", 5000, "completed", "2026-03-15T12:00:00", trial);
  // 200 tenge of S3's renewal went back in April: April's revenue, not March's.
  await payment(3, "renewal", "KZT", 100000, "refunded", "2026-03-16T12:00:00", {
    refunded: 20000,
    refundedAt: "2026-04-02T10:00:00",
  });
  for (const [day, name, count] of [
    ["2026-03-03", "go_support", 4],
    ["2026-03-10", "purchase_started", 2],
    ["2026-03-10", "purchase_completed", 1],
    ["2026-04-01", "go_support", 9], // after the range
  ] as const)
    await database.run("INSERT INTO analytics_daily (day, name, count) VALUES (?, ?, ?)", [day, name, count]);
  const admin = await makeOperator(testApp.context, "dash.admin", "admin");
  const { accessToken } = await tokensFor(testApp.app, admin.username, admin.password);
  const staff = staffOf(accessToken);
  const { dashboard } = apiOf(testApp.app).panel;
  /** The dashboard over from–to, as an administrator asks for it. */
  const over = (query: { from?: string; to?: string }) => dashboard.get({ ...staff, query });
  return { ...testApp, dashboard, over };
}

describe("the dashboard", () => {
  test("March, day by day, adds up to the seeded answers", async () => {
    const { over } = await seeded();
    const march = over({ from: "2026-03-01", to: "2026-03-31" });
    expect((await march).status).toBe(200);
    const dashboard = await dataOf(march);
    expect(dashboard.days).toHaveLength(31);
    const day = (date: string) => dashboard.days.find((entry) => entry.day === date);
    expect(dashboard.days.map((entry) => entry.activeSubscriptions)).toEqual([
      ...Array(7).fill(2), // 1–7 March: S1, S4
      ...Array(2).fill(1), // 8–9: S1
      ...Array(5).fill(2), // 10–14: S1, S2
      ...Array(5).fill(3), // 15–19: S1, S2, S3
      ...Array(12).fill(2), // 20–31: S2 ended at the start of the 20th
    ]);
    expect(day("2026-03-12")?.failedPayments).toBe(1);
    expect(dashboard.days.reduce((sum, entry) => sum + entry.failedPayments, 0)).toBe(1);
    expect(day("2026-03-03")?.supportClicks).toBe(4);
    expect(day("2026-03-10")).toMatchObject({ purchasesStarted: 2, purchasesCompleted: 1 });
    expect(dashboard.days.reduce((sum, entry) => sum + entry.supportClicks, 0)).toBe(4);
    // 150 + 1 roubles; 50 + 1,000 tenge (the refund came in April).
    expect(dashboard.months).toEqual([{ month: "2026-03", revenue: { RUB: 151, KZT: 1050 } }]);
    // S3's trial was renewed; S2's first payment was no trial.
    expect(dashboard.trialToPaid).toEqual({ trials: 1, converted: 1, rate: 1 });
    // S1 and S4 had access on 1 March; S4's ended. S2 began and ended inside March: not churn of it.
    expect(dashboard.churn).toEqual({ activeAtStart: 2, ended: 1, rate: 0.5 });
  });

  test("a range across months lists each month; February has only the trial ruble", async () => {
    const { over } = await seeded();
    const dashboard = await dataOf(over({ from: "2026-02-15", to: "2026-03-31" }));
    expect(dashboard.months).toEqual([
      { month: "2026-02", revenue: { RUB: 1, KZT: 0 } },
      { month: "2026-03", revenue: { RUB: 151, KZT: 1050 } },
    ]);
    // S1 and S3 began with a trial in the range and both were renewed; S4 began before it,
    // S2 without a trial.
    expect(dashboard.trialToPaid).toEqual({ trials: 2, converted: 2, rate: 1 });
    expect(dashboard.churn).toEqual({ activeAtStart: 1, ended: 1, rate: 1 });
  });

  test("a refund counts in the month it was made, whenever the payment was", async () => {
    const { over } = await seeded();
    const dashboard = await dataOf(over({ from: "2026-04-01", to: "2026-04-30" }));
    expect(dashboard.months).toEqual([{ month: "2026-04", revenue: { RUB: 0, KZT: -200 } }]);
  });

  test("administrators only; a range must be real dates, in order, at most a year", async () => {
    const { app, context, dashboard, over } = await seeded();
    const support = await makeOperator(context, "dash.support", "support");
    const { accessToken } = await tokensFor(app, support.username, support.password);
    expect((await dashboard.get(staffOf(accessToken))).status).toBe(403);
    expect((await dashboard.get()).status).toBe(401);
    for (const query of [
      { from: "2026-02-30", to: "2026-03-01" },
      { from: "2026-03-02", to: "2026-03-01" },
      { from: "2025-01-01", to: "2026-03-01" },
      { from: "yesterday" },
      { to: "2026-13-01" },
      { to: "" },
    ])
      expect((await over(query)).status, JSON.stringify(query)).toBe(400);
    const byDefault = await dataOf(over({}));
    expect(byDefault.days).toHaveLength(30);
  });
});
