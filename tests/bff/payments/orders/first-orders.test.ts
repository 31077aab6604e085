import { describe, expect, test } from "vitest";
import { addMonths, dayMs } from "../../../../bff/platform/calendar";
import { apiOf, dataOf, identityOf, sessionOf } from "../../../helpers/api";
import { makeTestApp } from "../../../helpers/app";
import { signIn } from "../../../helpers/customers";
import { cards, order, passDays, payWithCard } from "../../../helpers/payments";

// A first order keeps what it buys (its tariff, trial days and amount); paying it activates
// exactly that, even when another order was opened after it in another tab.

type World = Awaited<ReturnType<typeof makeTestApp>>;

const userIdOf = (accountId: string) => Number(accountId.replace("customer-", ""));

const subscriptionOf = ({ context }: World, userId: number) =>
  context.database.get<{ tariff_months: number; period_price: number; end_date: number; trial_days: number }>(
    "SELECT tariff_months, period_price, end_date, trial_days FROM subscriptions WHERE user_id = ? ORDER BY id DESC LIMIT 1",
    [userId],
  );

const trialMailOf = async ({ context }: World, userId: number) => {
  const row = await context.database.get<{ data: string }>(
    "SELECT data FROM mail_outbox WHERE user_id = ? AND kind = 'trial_started'",
    [userId],
  );
  return JSON.parse(row?.data ?? "{}") as {
    trialDays: number;
    firstCharge: { amount: number };
    tariffMonths: number;
  };
};

const renewalsOf = ({ context }: World, userId: number) =>
  context.database.all<{ amount: number }>(
    "SELECT amount FROM payments WHERE user_id = ? AND kind = 'renewal' AND status = 'completed' ORDER BY id",
    [userId],
  );

describe("two first orders open at once: paying one activates that one", () => {
  test.each([
    { paid: { months: 1, days: 3 }, other: { months: 12, days: 7 }, price: 15_000 },
    { paid: { months: 12, days: 7 }, other: { months: 1, days: 3 }, price: 108_000 },
  ])(
    "a $paid.months-month order paid after a $other.months-month one was opened: its plan, its trial mail, its renewal",
    async ({ paid, other, price }) => {
      const world = await makeTestApp();
      const { app, clock } = world;
      const customer = await signIn(app, `tabs-${paid.months}@example.com`, { period: paid.days });
      const first = await order(app, customer, paid.months, paid.days);
      const second = await order(app, customer, other.months, other.days);
      expect(second.invoiceId).not.toBe(first.invoiceId);
      const paidAt = clock.now();
      expect((await payWithCard(app, first.invoiceId, cards.success)).success).toBe(true);
      const userId = userIdOf(first.accountId);
      const subscription = await subscriptionOf(world, userId);
      expect(subscription).toMatchObject({
        tariff_months: paid.months,
        period_price: price,
        trial_days: paid.days,
      });
      expect((subscription?.end_date ?? 0) - paidAt).toBeGreaterThanOrEqual(paid.days * dayMs);
      expect((subscription?.end_date ?? 0) - paidAt).toBeLessThan(paid.days * dayMs + 60_000);
      // The trial's mail states the charge the consent did: this plan's price and months.
      expect(await trialMailOf(world, userId)).toMatchObject({
        trialDays: paid.days,
        tariffMonths: paid.months,
        firstCharge: { amount: price },
      });
      // The profile says the same, and the renewal charges it.
      const profile = await dataOf(apiOf(app).profile.post(identityOf(customer), sessionOf(customer)));
      expect(profile.userInfo.amount).toBe(price / 100);
      await passDays(app, paid.days + 0.5);
      expect(await renewalsOf(world, userId)).toEqual([{ amount: price }]);
    },
  );

  test.each([
    { paid: 12, other: 1, price: 108_000 },
    { paid: 1, other: 12, price: 15_000 },
  ])(
    "at the plan's price (the trial was had): the paid $paid-month order buys its own months, whatever the other tab said",
    async ({ paid, other, price }) => {
      const world = await makeTestApp();
      const { app, clock } = world;
      // A first subscription that took the trial and ended: the next order is at the price.
      const customer = await signIn(app, `again-${paid}@example.com`, { period: 1 });
      const trial = await order(app, customer, 1, 1);
      expect((await payWithCard(app, trial.invoiceId, cards.success)).success).toBe(true);
      const canceled = await apiOf(app).subscriptions.cancel.post(identityOf(customer), sessionOf(customer));
      expect(canceled.status).toBe(200);
      await passDays(app, 1.5);
      const first = await order(app, customer, paid, 30);
      await order(app, customer, other, 30);
      expect(first.amount).toBe(price / 100);
      const paidAt = clock.now();
      expect((await payWithCard(app, first.invoiceId, cards.success)).success).toBe(true);
      const subscription = await subscriptionOf(world, userIdOf(first.accountId));
      expect(subscription).toMatchObject({ tariff_months: paid, period_price: price });
      expect(subscription?.end_date).toBeGreaterThanOrEqual(addMonths(paidAt, paid));
      expect(subscription?.end_date).toBeLessThan(addMonths(paidAt, paid) + 60_000);
    },
  );
});
