import { describe, expect, test } from "vitest";
import { proRataDevicePrice } from "../../bff/modules/payments/extra-device";
import { dayMs } from "../../bff/platform/calendar";
import { makeTestApp } from "../helpers/app";
import { asCustomer, signIn } from "../helpers/customers";
import { cards, ledger, order, passDays, payWithCard } from "../helpers/payments";

describe("pro-rata price of a device slot", () => {
  test("is the monthly price per day for the days left, in whole units, at least one", () => {
    expect(proRataDevicePrice(5_000, 30 * dayMs, 0)).toBe(5_000);
    expect(proRataDevicePrice(5_000, 15 * dayMs, 0)).toBe(2_500);
    expect(proRataDevicePrice(5_000, 1 * dayMs, 0)).toBe(200);
    expect(proRataDevicePrice(5_000, 60_000, 0)).toBe(100);
  });
});

describe("buying a device slot", () => {
  test("charges pro rata now, frees a slot, and every later renewal includes the slot", async () => {
    const { app, context } = await makeTestApp();
    const customer = await signIn(app, "two-phones@example.com");
    const options = await order(app, customer, 1, 30);
    await payWithCard(app, options.invoiceId, cards.success);
    const response = await app.handle(asCustomer(customer, "/api/profile/addDevice"));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ success: true, charged: 50, availableDevices: 2 });
    const profile = (await (await app.handle(asCustomer(customer, "/api/profile"))).json()) as {
      userInfo: { amount: number };
    };
    expect(profile.userInfo.amount).toBe(200);
    await passDays(app, 30.1);
    const renewal = await context.database.get<{ amount: number }>(
      "SELECT amount FROM payments WHERE kind = 'renewal'",
    );
    expect(renewal?.amount).toBe(20_000);
    expect((await ledger(app, options.accountId)).map((entry) => entry.amount)).toEqual([1, 50, 200]);
  });

  test("a declined card adds no slot and says so", async () => {
    const { app } = await makeTestApp();
    const customer = await signIn(app, "declined-device@example.com");
    const options = await order(app, customer, 1, 30);
    await payWithCard(app, options.invoiceId, cards.firstThenDeclined);
    const response = await app.handle(asCustomer(customer, "/api/profile/addDevice"));
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({
      error: { message: expect.stringMatching(/declined: there is not enough money on it/) },
    });
    const profile = (await (await app.handle(asCustomer(customer, "/api/profile"))).json()) as {
      availableDevices: number;
    };
    expect(profile.availableDevices).toBe(1);
  });

  test("without an active subscription there is nothing to add a slot to", async () => {
    const { app } = await makeTestApp();
    const customer = await signIn(app, "no-sub-device@example.com");
    expect((await app.handle(asCustomer(customer, "/api/profile/addDevice"))).status).toBe(409);
  });
});
