import { describe, expect, test } from "vitest";
import { proRataDevicePrice } from "../../../../core/prices";
import { payments } from "../../../../db/queries/payments";
import { subscriptions } from "../../../../db/queries/subscriptions";
import { apiOf, dataOf, identityOf, refusalOf, sessionOf } from "../../../helpers/api";
import { makeTestApp } from "../../../helpers/app";
import { type SignedIn, signIn } from "../../../helpers/customers";
import {
  advanceDays,
  cards,
  ledger,
  order,
  passDays,
  payWithCard,
  runBilling,
} from "../../../helpers/payments";

type App = Awaited<ReturnType<typeof makeTestApp>>["app"];

/** The cabinet's purchase of a slot; `amount` is the charge the screen stated. */
const addDevice = (app: App, customer: SignedIn, amount?: number) =>
  apiOf(app).profile.addDevice.post({ ...identityOf(customer), amount }, sessionOf(customer));

const profileOf = (app: App, customer: SignedIn) =>
  dataOf(apiOf(app).profile.post(identityOf(customer), sessionOf(customer)));

describe("buying a device slot", () => {
  test("charges pro rata now, frees a slot, and every later renewal includes the slot", async () => {
    const { app, context } = await makeTestApp();
    const customer = await signIn(app, "two-phones@example.com");
    const options = await order(app, customer, 1, 30);
    await payWithCard(app, options.invoiceId, cards.success);
    const answer = await addDevice(app, customer);
    expect(answer.status).toBe(200);
    // The rest of the 30-day trial, counted on the real billing month it falls in.
    const bought = await context.database.get<{
      created_at: number;
      end_date: number;
      billing_anchor: number;
    }>(
      "SELECT p.created_at, s.end_date, s.billing_anchor FROM payments p JOIN subscriptions s ON s.id = p.subscription_id WHERE p.kind = 'device'",
    );
    const proRata = proRataDevicePrice(
      5_000,
      bought?.end_date ?? 0,
      bought?.created_at ?? 0,
      new Date(bought?.billing_anchor ?? 0).getUTCDate(),
    );
    expect(answer.data).toMatchObject({
      success: true,
      charged: proRata / 100,
      availableDevices: 2,
    });
    const profile = await profileOf(app, customer);
    expect(profile.userInfo.amount).toBe(200);
    await passDays(app, 30.1);
    const renewal = await context.database.get<{ amount: number }>(
      "SELECT amount FROM payments WHERE kind = 'renewal'",
    );
    expect(renewal?.amount).toBe(20_000);
    expect((await ledger(app, options.accountId)).map((entry) => entry.amount)).toEqual([
      1,
      proRata / 100,
      200,
    ]);
  });

  test("the purchase screen's figure is what is charged, to the kopeck; a figure that no longer holds charges nothing", async () => {
    const { app, context } = await makeTestApp();
    const customer = await signIn(app, "exact-slot@example.com", { period: 1 });
    const options = await order(app, customer, 1, 1);
    await payWithCard(app, options.invoiceId, cards.success);
    await passDays(app, 1.01); // the trial's end: the first paid month is running
    const quoteOf = async () => {
      const shop = await dataOf(apiOf(app).shop.getShop.post(identityOf(customer), sessionOf(customer)));
      return shop.deviceCharge;
    };
    const devicesAtBank = async () =>
      (await ledger(app, options.accountId)).filter((entry) => entry.invoiceId.startsWith("device-"));
    for (const daysLater of [0, 9.4, 13.7]) {
      await advanceDays(app, daysLater);
      const quote = await quoteOf();
      const subscription = await context.database.get<{ end_date: number }>(
        "SELECT end_date FROM subscriptions WHERE user_id = ?",
        [Number(options.accountId.replace("customer-", ""))],
      );
      expect(quote).toMatchObject({
        until: new Date(subscription?.end_date ?? 0).toISOString(),
        perMonth: 50,
      });
      expect(quote?.amount).toBeLessThanOrEqual(50);
      const amount = quote?.amount ?? 0;
      expect(await refusalOf(addDevice(app, customer, amount + 1))).toMatchObject({
        status: 409,
        code: "slot_price_changed",
        message: expect.stringContaining(`now ${amount}\u00a0₽`),
      });
      const bought = await addDevice(app, customer, amount);
      expect(bought.status).toBe(200);
      expect(bought.data).toMatchObject({ charged: amount });
      expect((await devicesAtBank()).at(-1)).toMatchObject({ amount, status: "Completed" });
    }
    expect(await devicesAtBank()).toHaveLength(3);
  });

  test("a declined card adds no slot and says so", async () => {
    const { app } = await makeTestApp();
    const customer = await signIn(app, "declined-device@example.com");
    const options = await order(app, customer, 1, 30);
    await payWithCard(app, options.invoiceId, cards.firstThenDeclined);
    expect(await refusalOf(addDevice(app, customer))).toMatchObject({
      status: 409,
      message: expect.stringMatching(/declined: there is not enough money on it/),
    });
    expect((await profileOf(app, customer)).availableDevices).toBe(1);
  });

  test("without an active subscription there is nothing to add a slot to", async () => {
    const { app } = await makeTestApp();
    const customer = await signIn(app, "no-sub-device@example.com");
    expect((await addDevice(app, customer)).status).toBe(409);
  });
});

describe("a slot and a renewal never price without each other", () => {
  /** A monthly customer one day into a one-day trial, past its due date; its renewal's notice went out. */
  async function dueCustomer(email: string) {
    const world = await makeTestApp();
    const customer = await signIn(world.app, email, { period: 1 });
    const options = await order(world.app, customer, 1, 1);
    await payWithCard(world.app, options.invoiceId, cards.success);
    await runBilling(world.app); // the notice goes out now, a day before the charge
    await advanceDays(world.app, 1.01);
    const userId = Number(options.accountId.replace("customer-", ""));
    const subscription = await subscriptions.current(world.context.database, userId);
    if (!subscription) throw new Error("no subscription");
    /** A charge committed and not settled yet, as one is while the bank is asked. */
    const pending = (kind: "renewal" | "device") =>
      payments.insert(
        world.context.database,
        {
          userId,
          subscriptionId: subscription.id,
          kind,
          invoiceId: `${kind}-in-flight-${subscription.id}`,
          accountId: options.accountId,
          amount: 15_000,
          currency: "RUB",
          description: "in flight",
          periodIndex: kind === "renewal" ? subscription.next_period_index : null,
        },
        world.clock.now(),
      );
    const renewals = async () =>
      (
        await world.context.database.all<{ amount: number; status: string }>(
          "SELECT amount, status FROM payments WHERE user_id = ? AND kind = 'renewal' AND invoice_id LIKE 'renewal-%' ORDER BY id",
          [userId],
        )
      ).map((payment) => [payment.amount, payment.status]);
    return { ...world, customer, pending, renewals };
  }

  test("a slot is refused, in the customer's language, while a renewal charge is in flight", async () => {
    const { app, customer, pending } = await dueCustomer("slot-waits@example.com");
    await pending("renewal");
    expect(await refusalOf(addDevice(app, customer))).toMatchObject({
      status: 409,
      message: expect.stringMatching(/renewal payment is being processed right now/),
    });
  });

  test("a renewal waits while a slot is being bought, and a purchase cut short holds it 15 minutes at most", async () => {
    const { app, pending, renewals } = await dueCustomer("renewal-waits@example.com");
    await pending("device");
    await runBilling(app);
    expect(await renewals()).toEqual([]);
    await advanceDays(app, 20 / (24 * 60)); // 20 minutes: the purchase was cut short
    await runBilling(app);
    expect(await renewals()).toEqual([[15_000, "completed"]]);
  });
});
