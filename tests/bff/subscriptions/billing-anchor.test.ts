import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { dayMs } from "../../../bff/platform/calendar";
import { makeTestApp } from "../../helpers/app";
import { signIn } from "../../helpers/customers";
import { advanceDays, cards, order, payWithCard, runBilling } from "../../helpers/payments";

// DESIGN §13: the billing day is anchored. A subscription first paid on the 31st renews on
// the last day of shorter months and on the 31st again after, never drifting to the 28th.

type World = Awaited<ReturnType<typeof makeTestApp>>;

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month + 1, 0)).getUTCDate();

/** The next 00:00 UTC of `day` January at least two days ahead of the test clock. */
function nextJanuary(now: number, day: number): number {
  let year = new Date(now).getUTCFullYear();
  while (Date.UTC(year, 0, day) < now + 2 * dayMs) year++;
  return Date.UTC(year, 0, day);
}

/** Moves the test clock to `moment` (it only moves forward). */
async function moveTo({ app, clock }: World, moment: number) {
  const days = (moment - clock.now()) / dayMs;
  if (days > 0) await advanceDays(app, days);
}

const subscriptionOf = ({ context }: World, userId: number) =>
  context.database.get<{ end_date: number; next_charge_at: number; billing_anchor: number | null }>(
    "SELECT end_date, next_charge_at, billing_anchor FROM subscriptions WHERE user_id = ? ORDER BY id DESC LIMIT 1",
    [userId],
  );

describe("a year of renewals on the test clock keeps the billing day", () => {
  test.each([31, 30])(
    "first paid on %i January: every due date is that day, or the last day of a shorter month",
    async (anchorDay) => {
      const world = await makeTestApp();
      const { app, clock, context } = world;
      const firstPaid = nextJanuary(clock.now(), anchorDay);
      // A one-day trial paid the day before: the first paid period begins on the anchor day.
      await moveTo(world, firstPaid - dayMs);
      const customer = await signIn(app, `anchor-${anchorDay}@example.com`, { period: 1 });
      const options = await order(app, customer, 1, 1);
      expect((await payWithCard(app, options.invoiceId, cards.success)).success).toBe(true);
      const userId = Number(options.accountId.replace("customer-", ""));
      const timeOfDay = ((await subscriptionOf(world, userId))?.end_date ?? 0) - firstPaid;
      expect(timeOfDay).toBeGreaterThanOrEqual(0);
      expect(timeOfDay).toBeLessThan(dayMs / 24);
      const year = new Date(firstPaid).getUTCFullYear();
      for (let month = 0; month <= 12; month++) {
        const dueYear = year + Math.floor(month / 12);
        const dueMonth = month % 12;
        const due = Date.UTC(dueYear, dueMonth, Math.min(anchorDay, daysIn(dueYear, dueMonth))) + timeOfDay;
        const subscription = await subscriptionOf(world, userId);
        expect(new Date(subscription?.end_date ?? 0).toISOString(), `due ${month}`).toBe(
          new Date(due).toISOString(),
        );
        expect(subscription?.next_charge_at).toBe(due);
        // The notice goes out two days before; the charge is made an hour after the due date.
        await moveTo(world, due - 2 * dayMs);
        await runBilling(app);
        await moveTo(world, due + dayMs / 24);
        expect(await runBilling(app)).toMatchObject({ completed: 1 });
      }
      const charges = await context.database.all<{ amount: number; status: string }>(
        "SELECT amount, status FROM payments WHERE user_id = ? AND kind = 'renewal' ORDER BY id",
        [userId],
      );
      expect(charges).toEqual(Array(13).fill({ amount: 15_000, status: "completed" }));
    },
    300_000,
  );
});

describe("the migration anchors existing subscriptions", () => {
  const migrationOf = (engine: string) =>
    readFileSync(
      new URL(
        `../../../db/migrations/${engine}/${engine === "postgres" ? "0011" : "0022"}_billing_anchor.sql`,
        import.meta.url,
      ),
      "utf8",
    );

  test("a drifted one gets its first paid day back, a full-price one its first payment, one moved by days its end", async () => {
    const world = await makeTestApp();
    const { app, context } = world;
    const { database } = context;
    const at = (iso: string) => Date.parse(iso);
    const userIds: number[] = [];
    for (const name of ["drifted", "full-price", "moved", "never-paid"]) {
      await signIn(app, `${name}@example.com`);
      const row = await database.get<{ id: number }>("SELECT id FROM users WHERE email = ?", [
        `${name}@example.com`,
      ]);
      userIds.push(row?.id ?? 0);
    }
    const [drifted, fullPrice, moved, neverPaid] = userIds;
    const set = (userId: number | undefined, start: number, end: number) =>
      database.run(
        "UPDATE subscriptions SET status = 'ACTIVE', trial_days = 1, start_date = ?, end_date = ?, next_charge_at = ? WHERE user_id = ?",
        [start, end, end, userId ?? 0],
      );
    // Trial paid 30 January, first charged 31 January, then drifted: 28 Feb, 28 Mar, 28 Apr.
    await set(drifted, at("2027-01-30T09:00:00Z"), at("2027-04-28T09:00:00Z"));
    await database.run(
      `INSERT INTO payments (user_id, subscription_id, kind, invoice_id, account_id, amount, currency, description,
         status, is_trial, created_at, updated_at)
       SELECT user_id, id, 'first', 'first-drifted', 'customer', 100, 'RUB', 'trial', 'completed', 1, 0, 0
       FROM subscriptions WHERE user_id = ?`,
      [drifted ?? 0],
    );
    // Paid the period's price on 30 January, renewed on 30 March.
    await set(fullPrice, at("2027-01-30T09:00:00Z"), at("2027-03-30T09:00:00Z"));
    // A purchase added days to the period: its end is off the first payment's grid.
    await set(moved, at("2027-01-05T09:00:00Z"), at("2027-03-20T17:00:00Z"));
    await database.exec("ALTER TABLE subscriptions DROP COLUMN billing_anchor");
    await database.exec(migrationOf(database.engine));
    const anchorOf = async (userId: number | undefined) =>
      (
        await database.get<{ billing_anchor: number | null }>(
          "SELECT billing_anchor FROM subscriptions WHERE user_id = ?",
          [userId ?? 0],
        )
      )?.billing_anchor ?? null;
    expect(await anchorOf(drifted)).toBe(at("2027-01-31T09:00:00Z"));
    expect(await anchorOf(fullPrice)).toBe(at("2027-01-30T09:00:00Z"));
    expect(await anchorOf(moved)).toBe(at("2027-03-20T17:00:00Z"));
    expect(await anchorOf(neverPaid)).toBeNull();
  });
});
