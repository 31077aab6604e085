import { describe, expect, test } from "vitest";
import { apiOf, dataOf, identityOf, refusalOf, sessionOf } from "../../helpers/api";
import { makeTestApp } from "../../helpers/app";
import { fixture, type SignedIn, signIn } from "../../helpers/customers";

const { app, clock } = await makeTestApp();
const api = apiOf(app);
const day = 24 * 60 * 60 * 1000;

const profileOf = (customer: SignedIn) => dataOf(api.profile.post(identityOf(customer), sessionOf(customer)));
const cancel = (customer: SignedIn) =>
  api.subscriptions.cancel.post(identityOf(customer), sessionOf(customer));
const resume = (customer: SignedIn) =>
  api.subscriptions.resume.post(identityOf(customer), sessionOf(customer));
const detach = (customer: SignedIn, deviceId: string | undefined) =>
  api.profile.detachDevice.post({ ...identityOf(customer), deviceId: deviceId ?? "" }, sessionOf(customer));

describe("cancel and resume", () => {
  test("cancel keeps access until the end of the paid period; resume re-enables renewal without a charge", async () => {
    await fixture(app, { email: "cycle@example.com", status: "ACTIVE" });
    const customer = await signIn(app, "cycle@example.com");
    const before = await profileOf(customer);
    expect(before.userInfo).toMatchObject({
      subscriptionStatus: "ACTIVE",
      subscriptionIsActive: true,
      amount: 150,
    });
    expect(before.userInfo.nextTransactionDate).toBe(before.userInfo.expirationDate);

    // The e-mail alone names the account too.
    const cancelled = await api.subscriptions.cancel.post({ email: customer.email }, sessionOf(customer));
    expect(cancelled.status).toBe(200);
    expect((await profileOf(customer)).userInfo).toMatchObject({
      subscriptionStatus: "CANCELED",
      subscriptionIsActive: true,
      nextTransactionDate: null,
      amount: null,
      expirationDate: before.userInfo.expirationDate,
    });

    expect((await cancel(customer)).status).toBe(409);

    expect((await resume(customer)).status).toBe(200);
    expect((await profileOf(customer)).userInfo).toMatchObject({
      subscriptionStatus: "ACTIVE",
      nextTransactionDate: before.userInfo.expirationDate,
      expirationDate: before.userInfo.expirationDate,
    });
  });

  test("a cancelled subscription closes when its period ends and can no longer be resumed", async () => {
    await fixture(app, { email: "ends@example.com", status: "CANCELED" });
    const customer = await signIn(app, "ends@example.com");
    expect((await profileOf(customer)).userInfo.subscriptionIsActive).toBe(true);
    clock.advance(26 * day);
    expect((await profileOf(customer)).userInfo).toMatchObject({
      subscriptionStatus: "CANCELED",
      subscriptionIsActive: false,
    });
    const refusal = await refusalOf(resume(customer));
    expect(refusal.status).toBe(409);
    expect(refusal.message).toMatch(/buy a new one/);
  });

  test("cancel without a subscription is a 409 with a clear message", async () => {
    const customer = await signIn(app, "never-paid@example.com");
    const refusal = await refusalOf(cancel(customer));
    expect(refusal.status).toBe(409);
    expect(refusal.message).toBe("There is no active subscription to cancel.");
  });
});

describe("devices", () => {
  test("detaching a device frees its slot", async () => {
    await fixture(app, { email: "devices@example.com", status: "ACTIVE", devices: 2, inactiveDevices: 1 });
    const customer = await signIn(app, "devices@example.com");
    const before = await profileOf(customer);
    expect(before.devices.map((device) => device.isActive).sort()).toEqual([false, true]);
    expect(before.availableDevices).toBe(0);
    const active = before.devices.find((device) => device.isActive);
    const after = await dataOf(detach(customer, active?.deviceId));
    expect(after.availableDevices).toBe(1);
    expect(after.devices.map((device) => device.deviceId)).not.toContain(active?.deviceId);
  });

  test("detaching an unknown or already detached device is a 404", async () => {
    await fixture(app, { email: "detach-twice@example.com", status: "ACTIVE", devices: 1 });
    const customer = await signIn(app, "detach-twice@example.com");
    const [device] = (await profileOf(customer)).devices;
    expect((await detach(customer, device?.deviceId)).status).toBe(200);
    expect((await detach(customer, device?.deviceId)).status).toBe(404);
  });

  test("a fixture asked again for the same customer keeps the devices it made", async () => {
    const state = { email: "fixture-twice@example.com", status: "ACTIVE", devices: 2 } as const;
    const first = await fixture(app, state);
    expect(await fixture(app, state)).toEqual(first);
    const customer = await signIn(app, state.email);
    expect((await profileOf(customer)).devices).toHaveLength(2);
  });

  test("without access there are no free slots", async () => {
    await fixture(app, { email: "expired-devices@example.com", status: "EXPIRED" });
    const customer = await signIn(app, "expired-devices@example.com");
    expect((await profileOf(customer)).availableDevices).toBe(0);
  });
});

describe("cabinet reads are never stale after a change", () => {
  test("every write shows at once in the next profile read", async () => {
    await fixture(app, { email: "fresh@example.com", status: "ACTIVE", devices: 1 });
    const customer = await signIn(app, "fresh@example.com");
    expect((await profileOf(customer)).devices).toHaveLength(1);
    const [device] = (await profileOf(customer)).devices;
    await detach(customer, device?.deviceId);
    expect((await profileOf(customer)).devices).toHaveLength(0);
    await cancel(customer);
    expect((await profileOf(customer)).userInfo.subscriptionStatus).toBe("CANCELED");
  });

  test("a time-driven change shows within a second: a cancelled period running out", async () => {
    await fixture(app, { email: "runs-out@example.com", status: "CANCELED" });
    const customer = await signIn(app, "runs-out@example.com");
    expect((await profileOf(customer)).userInfo.subscriptionIsActive).toBe(true);
    clock.advance(25 * day + 1_001);
    expect((await profileOf(customer)).userInfo.subscriptionIsActive).toBe(false);
  });
});
