import { describe, expect, test } from "vitest";
import type { AllowListResponse } from "../../../../agent/contract/node-api";
import { runRetention } from "../../../../bff/jobs/retention";
import { accessEndsAt } from "../../../../bff/modules/access/subscription/allowlist/access-rule";
import {
  allowListSize,
  fullAllowList,
} from "../../../../bff/modules/access/subscription/allowlist/allowlist";
import { dayMs } from "../../../../bff/platform/calendar";
import { subscriptions } from "../../../../db/queries/subscriptions";
import { apiOf, identityOf, sessionOf } from "../../../helpers/api";
import { makeTestApp } from "../../../helpers/app";
import { connectDeviceInUse, fixture, type SignedIn, signIn } from "../../../helpers/customers";
import { allowList, entryWithId, nodeHeaders } from "../../../helpers/nodes";
import { advanceDays, cards, order, passDays, payWithCard, runBilling } from "../../../helpers/payments";
import { panelRefund, staffHeaders, subscriptionOf } from "../../../helpers/refunds";

/**
 * DESIGN §8: a credential is on the nodes exactly while its device is in use and its
 * account has access by the cabinet's rule, and every change reaches them as a delta.
 */
type TestApp = Awaited<ReturnType<typeof makeTestApp>>;
type Device = { deviceId: string; id: string; tag: string };

async function world() {
  const testApp = await makeTestApp();
  const node = await nodeHeaders(testApp.context, "nl-ams-1");
  return { ...testApp, node, list: (since?: number) => allowList(testApp.app, node, { since }) };
}

async function credentialOf(context: TestApp["context"], deviceId: string): Promise<Device> {
  const row = await context.database.get<{ credential: string; node_tag: string }>(
    "SELECT credential, node_tag FROM devices WHERE device_id = ?",
    [deviceId],
  );
  return { deviceId, id: row?.credential ?? "", tag: row?.node_tag ?? "" };
}

/** A device connected in the cabinet and added in its app: in use, no longer pending. */
async function connect({ app, context }: TestApp, customer: SignedIn): Promise<Device> {
  return credentialOf(context, (await connectDeviceInUse(app, customer)).deviceId);
}

/** The customer's cabinet calls that change their devices and card. */
function cabinetOf({ app }: TestApp, customer: SignedIn) {
  const { profile } = apiOf(app);
  const me = identityOf(customer);
  const session = sessionOf(customer);
  return {
    resetLink: (deviceId: string) => profile.devices.resetLink.post({ ...me, deviceId }, session),
    detach: (deviceId: string) => profile.detachDevice.post({ ...me, deviceId }, session),
    addDevice: () => profile.addDevice.post(me, session),
    removeCard: () => profile.removeCard.post(me, session),
    deleteAccount: () => profile.delete.post({ ...me, confirm: true }, session),
  };
}

/** A customer who paid the 1-rouble first payment (a one-day trial) with `card`. */
async function payingCustomer({ app }: TestApp, email: string, card = cards.success) {
  const customer = await signIn(app, email, { period: 1 });
  const widget = await order(app, customer, 1, 1);
  expect((await payWithCard(app, widget.invoiceId, card)).success).toBe(true);
  return { customer, userId: Number(widget.accountId.replace("customer-", "")) };
}

/** The same, with a connected device. */
async function customerWithDevice(testApp: TestApp, email: string, card = cards.success) {
  const paying = await payingCustomer(testApp, email, card);
  return { ...paying, device: await connect(testApp, paying.customer) };
}

const delta = (list: AllowListResponse) => ({
  full: list.full,
  entries: list.entries,
  removed: list.removed,
});

describe("the whole allow-list", () => {
  test("holds exactly the credentials in use of customers with access, each with the time its access has left", async () => {
    const testApp = await world();
    const { app, context, list } = testApp;
    const active = await fixture(app, {
      email: "al.active@example.com",
      status: "ACTIVE",
      devices: 2,
      inactiveDevices: 1,
    });
    const canceled = await fixture(app, { email: "al.canceled@example.com", status: "CANCELED", devices: 1 });
    await fixture(app, { email: "al.over@example.com", status: "CANCELED_OVER", devices: 1 });
    await fixture(app, { email: "al.expired@example.com", status: "EXPIRED", devices: 1 });
    const unlinking = await customerWithDevice(testApp, "al.unlinked@example.com");
    await cabinetOf(testApp, unlinking.customer).detach(unlinking.device.deviceId);
    const inUse = [
      await credentialOf(context, `dev-${active.userId}-1`),
      await credentialOf(context, `dev-${canceled.userId}-1`),
    ];

    const before = context.clock.now();
    const answer = await list();
    const after = context.clock.now();
    expect(answer.full).toBe(true);
    expect(answer.removed).toEqual([]);
    expect(answer.entries.map((entry) => entry.id).sort()).toEqual(inUse.map((device) => device.id).sort());
    for (const [index, userId] of [active.userId, canceled.userId].entries()) {
      const subscription = await subscriptions.current(context.database, userId);
      const entry = entryWithId(answer, inUse[index]?.id ?? "");
      expect(entry?.tag).toBe(inUse[index]?.tag);
      // The rule's end, counted from the moment the product answered.
      expect(entry?.remainingMs).toBeLessThanOrEqual((accessEndsAt(subscription, before) ?? 0) - before);
      expect(entry?.remainingMs).toBeGreaterThanOrEqual((accessEndsAt(subscription, after) ?? 0) - after);
    }
    // A cancelled period runs to its end, not a day more.
    const canceledEnd = (await subscriptions.current(context.database, canceled.userId))?.end_date ?? 0;
    expect(entryWithId(answer, inUse[1]?.id ?? "")?.remainingMs).toBeLessThanOrEqual(canceledEnd - before);

    const now = context.clock.now();
    expect((await fullAllowList(context.database, now)).map((entry) => entry.id).sort()).toEqual(
      answer.entries.map((entry) => entry.id).sort(),
    );
    expect(await allowListSize(context.database, now)).toBe(2);
  });
});

describe("each change reaches the nodes as a delta", () => {
  test("connect adds the credential; a rotation replaces its key under the same tag; an unlink removes the tag", async () => {
    const testApp = await world();
    const { context, list } = testApp;
    const { customer } = await payingCustomer(testApp, "al.delta@example.com");
    const start = await list();
    expect(start.entries).toEqual([]);
    const device = await connect(testApp, customer);
    const connected = await list(start.version);
    expect(connected.version).toBeGreaterThan(start.version);
    expect(delta(connected)).toEqual({
      full: false,
      entries: [{ tag: device.tag, id: device.id, remainingMs: expect.any(Number) }],
      removed: [],
    });
    // Nothing new: an empty delta at the same version.
    expect(await list(connected.version)).toEqual({
      version: connected.version,
      full: false,
      entries: [],
      removed: [],
    });

    await cabinetOf(testApp, customer).resetLink(device.deviceId);
    const rotated = await credentialOf(context, device.deviceId);
    const afterRotation = await list(connected.version);
    expect(rotated.id).not.toBe(device.id);
    expect(delta(afterRotation)).toEqual({
      full: false,
      entries: [{ tag: device.tag, id: rotated.id, remainingMs: expect.any(Number) }],
      removed: [],
    });

    await cabinetOf(testApp, customer).detach(device.deviceId);
    expect(delta(await list(afterRotation.version))).toEqual({
      full: false,
      entries: [],
      removed: [device.tag],
    });
  });

  test("a refund that ends access removes every device of the customer", async () => {
    const testApp = await world();
    const { app, context, list } = testApp;
    const { customer, device } = await customerWithDevice(testApp, "al.refund@example.com");
    const before = await list();
    expect(entryWithId(before, device.id)).toBeDefined();
    const staff = await staffHeaders(app, context);
    const refunded = await panelRefund(app, await staff.admin(), {
      email: customer.email,
      uid: customer.uid,
    });
    expect(refunded).toMatchObject({ Success: true, endsAccess: true });
    expect(delta(await list(before.version))).toEqual({ full: false, entries: [], removed: [device.tag] });
  });

  test("deleting the account removes its devices, whose rows are gone", async () => {
    const testApp = await world();
    const { list } = testApp;
    const { customer, device } = await customerWithDevice(testApp, "al.delete@example.com");
    const before = await list();
    expect((await cabinetOf(testApp, customer).deleteAccount()).status).toBe(200);
    expect(delta(await list(before.version))).toEqual({ full: false, entries: [], removed: [device.tag] });
  });

  test("a removed card keeps the device to the end of the paid period, and the period's end takes it off", async () => {
    const testApp = await world();
    const { app, context, list } = testApp;
    const customer = await signIn(app, "al.card@example.com");
    const widget = await order(app, customer, 1, 30);
    expect((await payWithCard(app, widget.invoiceId, cards.success)).success).toBe(true);
    const device = await connect(testApp, customer);
    const userId = Number(widget.accountId.replace("customer-", ""));
    const before = await list();
    expect((await cabinetOf(testApp, customer).removeCard()).status).toBe(200);
    const removed = await list(before.version);
    const end = (await subscriptionOf(context, userId))?.end_date ?? 0;
    expect(removed.full).toBe(false);
    const entry = entryWithId(removed, device.id);
    // Exactly to the end of the period now: no renewal grace any more.
    expect(entry?.remainingMs).toBeGreaterThan(0);
    expect(entry?.remainingMs).toBeLessThanOrEqual(end - context.clock.now() + 1000);

    await advanceDays(app, 29);
    const stillIn = await list(removed.version);
    expect(stillIn.full).toBe(true);
    expect(entryWithId(stillIn, device.id)).toBeDefined();
    await advanceDays(app, 2);
    const ended = await list(stillIn.version);
    expect(ended.full).toBe(true);
    expect(entryWithId(ended, device.id)).toBeUndefined();
  });

  test("a lapse after dunning removes the devices", async () => {
    const testApp = await world();
    const { app, context, list } = testApp;
    const { userId, device } = await customerWithDevice(
      testApp,
      "al.lapse@example.com",
      cards.firstThenDeclined,
    );
    let version = (await list()).version;
    for (let day = 0; day < 14; day++) {
      await advanceDays(app, 1);
      version = (await list(version)).version;
      await runBilling(app);
      if ((await subscriptionOf(context, userId))?.status === "EXPIRED") break;
    }
    expect((await subscriptionOf(context, userId))?.status).toBe("EXPIRED");
    expect(delta(await list(version))).toEqual({ full: false, entries: [], removed: [device.tag] });
  });

  test("a renewal extends the time the device has left", async () => {
    const testApp = await world();
    const { app, list } = testApp;
    const { device } = await customerWithDevice(testApp, "al.renew@example.com");
    // The renewal's notice goes 24 h ahead, then the trial's day runs out.
    await passDays(app, 0.5);
    await advanceDays(app, 0.6);
    const before = await list();
    const left = entryWithId(before, device.id)?.remainingMs ?? 0;
    expect((await runBilling(app)).completed).toBe(1);
    const renewed = await list(before.version);
    expect(renewed.full).toBe(false);
    expect(entryWithId(renewed, device.id)?.remainingMs).toBeGreaterThan(left + 25 * dayMs);
  });

  test("moving the demo's test clock sends every node the whole list, with the new times left", async () => {
    const testApp = await world();
    const { app, list } = testApp;
    const { device } = await customerWithDevice(testApp, "al.clock@example.com");
    const before = await list();
    const left = entryWithId(before, device.id)?.remainingMs ?? 0;
    await advanceDays(app, 0.25);
    const after = await list(before.version);
    expect(after.full).toBe(true);
    expect(after.version).toBeGreaterThan(before.version);
    expect(entryWithId(after, device.id)?.remainingMs).toBeLessThan(left - 0.2 * dayMs);
  });
});

describe("device slots", () => {
  test("a customer who buys again with fewer slots keeps only the oldest devices in use on the nodes", async () => {
    const testApp = await world();
    const { app, context, list } = testApp;
    const customer = await signIn(app, "al.slots@example.com");
    const first = await order(app, customer, 1, 30);
    expect((await payWithCard(app, first.invoiceId, cards.success)).success).toBe(true);
    const userId = Number(first.accountId.replace("customer-", ""));
    for (let extra = 0; extra < 2; extra++)
      expect((await cabinetOf(testApp, customer).addDevice()).status).toBe(200);
    const devices = [
      await connect(testApp, customer),
      await connect(testApp, customer),
      await connect(testApp, customer),
    ];
    const all = devices.map((device) => device.id).sort();
    expect((await list()).entries.map((entry) => entry.id).sort()).toEqual(all);

    // The card goes, the period runs out: access ends, the devices stay "in use" in their rows.
    expect((await cabinetOf(testApp, customer).removeCard()).status).toBe(200);
    await advanceDays(app, 31);
    await runBilling(app);
    const lapsed = await list();
    expect(lapsed.entries).toEqual([]);

    // The session ran out with the month: the customer signs in again to buy.
    const back = await signIn(app, customer.email);
    const again = await order(app, back, 1, 30);
    expect((await payWithCard(app, again.invoiceId, cards.success)).success).toBe(true);
    const bought = await subscriptions.current(context.database, userId);
    expect(bought?.status).toBe("ACTIVE");
    expect(bought?.extra_devices).toBe(0);
    const oldest = devices[0];
    const full = await list();
    expect(full.entries.map((entry) => entry.id)).toEqual([oldest?.id]);
    expect(await allowListSize(context.database, context.clock.now())).toBe(1);
    const changed = await list(lapsed.version);
    expect(changed.full).toBe(false);
    expect(changed.entries.map((entry) => entry.id)).toEqual([oldest?.id]);
    expect([...changed.removed].sort()).toEqual(
      devices
        .slice(1)
        .map((device) => device.tag)
        .sort(),
    );

    // A slot bought back puts the next oldest device back on the nodes, as a delta.
    const beforeSlot = await list();
    expect((await cabinetOf(testApp, back).addDevice()).status).toBe(200);
    const slotBought = await list(beforeSlot.version);
    expect(slotBought.full).toBe(false);
    expect(slotBought.entries.map((entry) => entry.id).sort()).toEqual([oldest?.id, devices[1]?.id].sort());
    expect(slotBought.removed).toEqual([devices[2]?.tag]);
  });
});

describe("the change log", () => {
  test("keeps a day: older rows go with retention, the newest stays, and an agent further behind gets the whole list", async () => {
    const testApp = await world();
    const { context, list } = testApp;
    const first = await customerWithDevice(testApp, "al.log1@example.com");
    await customerWithDevice(testApp, "al.log2@example.com");
    const current = await list();
    await context.database.run("UPDATE access_changes SET changed_at = changed_at - ?", [2 * dayMs]);
    await runRetention(context);
    const kept = await context.database.all<{ version: number }>("SELECT version FROM access_changes");
    expect(kept.map((row) => Number(row.version))).toEqual([current.version]);
    // Up to date: nothing new. Behind what the log holds: everything.
    expect(await list(current.version)).toEqual({
      version: current.version,
      full: false,
      entries: [],
      removed: [],
    });
    const behind = await list(1);
    expect(behind.full).toBe(true);
    expect(behind.version).toBe(current.version);
    expect(behind.entries).toHaveLength(2);
    // A version the log never gave (a restored database): everything too.
    expect((await list(current.version + 1000)).full).toBe(true);
    // And the log goes on from there.
    await cabinetOf(testApp, first.customer).detach(first.device.deviceId);
    expect(delta(await list(current.version))).toEqual({
      full: false,
      entries: [],
      removed: [first.device.tag],
    });
  });
});
