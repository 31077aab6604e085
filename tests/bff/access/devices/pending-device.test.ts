import { describe, expect, test } from "vitest";
import { pendingReservationMs } from "../../../../bff/modules/access/devices/device-pending";
import { linkChangesPerHour } from "../../../../bff/modules/access/devices/link-limits";
import { apiOf, dataOf, identityOf, refusalOf, sessionOf } from "../../../helpers/api";
import { makeTestApp, request } from "../../../helpers/app";
import { type SignedIn, signIn } from "../../../helpers/customers";
import { allowList, entryWithId, nodeHeaders } from "../../../helpers/nodes";
import { advanceDays, cards, order, payWithCard } from "../../../helpers/payments";

/**
 * DESIGN §8 "Connect a new device": pressing Connect shows the link of a pending device
 * that holds a slot only until its link is used (the app's first fetch, the app's
 * activation, or the customer's "I've added it"); closed unused, or after half an hour,
 * the slot is free again, and the next Connect shows the same link.
 */
type TestApp = Awaited<ReturnType<typeof makeTestApp>>;

async function world() {
  const testApp = await makeTestApp();
  const node = await nodeHeaders(testApp.context, "nl-ams-1");
  const customer = await signIn(testApp.app, "pending@example.com");
  expect(
    (await payWithCard(testApp.app, (await order(testApp.app, customer)).invoiceId, cards.success)).success,
  ).toBe(true);
  return { ...testApp, node, customer };
}

/** The customer's device calls in the cabinet and the app, with their session and identity. */
function callsOf({ app }: TestApp, customer: SignedIn) {
  const api = apiOf(app);
  const me = identityOf(customer);
  const session = sessionOf(customer);
  return {
    connect: (deviceId?: string) => api.profile.devices.connect.post({ ...me, deviceId }, session),
    release: (deviceId: string) => api.profile.devices.release.post({ ...me, deviceId }, session),
    confirm: (deviceId: string) => api.profile.devices.confirm.post({ ...me, deviceId }, session),
    addDevice: () => api.profile.addDevice.post(me, session),
    activate: (deviceId: string) =>
      api.devices.activate.post(
        // The route's platform schema is a union built from a list, which Eden reads as `never`.
        { ...me, deviceId, deviceName: "Pixel 9", platform: "android" },
        session,
      ),
  };
}

/** The device and link Connect answers (its QR code only draws the link). */
async function connect(testApp: TestApp, customer: SignedIn, deviceId?: string) {
  const { deviceId: id, subscriptionUrl } = await dataOf(callsOf(testApp, customer).connect(deviceId));
  return { deviceId: id, subscriptionUrl };
}
type Link = Awaited<ReturnType<typeof connect>>;

const profileOf = (testApp: TestApp, customer: SignedIn) =>
  dataOf(apiOf(testApp.app).profile.post(identityOf(customer), sessionOf(customer)));

const credentialOf = async ({ context }: TestApp, deviceId: string) =>
  (await context.database.get<{ credential: string; node_tag: string; pending_until: number | null }>(
    "SELECT credential, node_tag, pending_until FROM devices WHERE device_id = ?",
    [deviceId],
  )) ?? { credential: "", node_tag: "", pending_until: null };

const fetchLink = ({ app }: TestApp, link: Link) =>
  app.handle(request(new URL(link.subscriptionUrl).pathname));

const minutes = (count: number) => count / (24 * 60);

describe("Connect a new device", () => {
  test("asked for by its id while pending, the same device and link; a new device meanwhile finds no free slot; closed unused, the slot is free and the next new device is that one again", async () => {
    const testApp = await world();
    const { customer } = testApp;
    const first = await connect(testApp, customer);
    const held = await profileOf(testApp, customer);
    expect(held.availableDevices).toBe(0);
    expect(held.devices).toEqual([expect.objectContaining({ deviceId: first.deviceId, isActive: true })]);
    expect(Date.parse(held.devices[0]?.pendingUntil ?? "")).toBeGreaterThan(testApp.clock.now());
    // The cabinet asks again by the pending device's id (it lists it).
    expect(await connect(testApp, customer, first.deviceId)).toEqual(first);
    // DESIGN §8: a new device needs a free slot, and the pending one holds the only one.
    const refused = await refusalOf(callsOf(testApp, customer).connect());
    expect(refused.status).toBe(409);
    expect(refused.code).toBe("no_free_device_slot");

    const released = await callsOf(testApp, customer).release(first.deviceId);
    expect(released.status).toBe(200);
    // No "waiting for the app" entry is left, and the slot is free.
    expect(released.data).toEqual({ success: true, devices: [], availableDevices: 1 });
    expect(await connect(testApp, customer)).toEqual(first);
    expect((await profileOf(testApp, customer)).availableDevices).toBe(0);
  });

  test("with two free slots, a second new device is a second device, each with its own link", async () => {
    const testApp = await world();
    const { customer } = testApp;
    expect((await callsOf(testApp, customer).addDevice()).status).toBe(200);
    const first = await connect(testApp, customer);
    const second = await connect(testApp, customer);
    expect(second.deviceId).not.toBe(first.deviceId);
    expect(second.subscriptionUrl).not.toBe(first.subscriptionUrl);
    expect((await profileOf(testApp, customer)).availableDevices).toBe(0);
    expect((await callsOf(testApp, customer).connect()).status).toBe(409);
  });

  test("the app's first fetch takes the slot for good: closing the panel then changes nothing, and no second device is offered a slot", async () => {
    const testApp = await world();
    const { customer } = testApp;
    const first = await connect(testApp, customer);
    expect((await fetchLink(testApp, first)).status).toBe(200);
    expect((await credentialOf(testApp, first.deviceId)).pending_until).toBeNull();
    await callsOf(testApp, customer).release(first.deviceId);
    const profile = await profileOf(testApp, customer);
    expect(profile).toMatchObject({
      availableDevices: 0,
      devices: [{ deviceId: first.deviceId, pendingUntil: null }],
    });
    // Half an hour later it is still in use.
    await advanceDays(testApp.app, minutes(45));
    expect((await profileOf(testApp, customer)).availableDevices).toBe(0);
    const next = await refusalOf(callsOf(testApp, customer).connect());
    expect(next.status).toBe(409);
    expect(next.code).toBe("no_free_device_slot");
  });

  test("the customer's 'I've added it' takes the slot; a bought slot then gets a new device", async () => {
    const testApp = await world();
    const { customer } = testApp;
    const first = await connect(testApp, customer);
    const confirmed = await callsOf(testApp, customer).confirm(first.deviceId);
    expect(confirmed.status).toBe(200);
    expect(confirmed.data).toMatchObject({ availableDevices: 0, devices: [{ pendingUntil: null }] });
    expect((await callsOf(testApp, customer).addDevice()).status).toBe(200);
    const second = await connect(testApp, customer);
    expect(second.deviceId).not.toBe(first.deviceId);
    expect(second.subscriptionUrl).not.toBe(first.subscriptionUrl);
  });

  test("the app activating the pending device takes its slot for good", async () => {
    const testApp = await world();
    const { app, customer } = testApp;
    const first = await connect(testApp, customer);
    const activated = await callsOf(testApp, customer).activate(first.deviceId);
    expect(activated.status).toBe(200);
    expect((await credentialOf(testApp, first.deviceId)).pending_until).toBeNull();
    await advanceDays(app, minutes(45));
    expect((await profileOf(testApp, customer)).availableDevices).toBe(0);
  });

  test("a pending device's credential has its owner's whole term on the nodes; given back, after half an hour by itself, it stays until another device takes the slot", async () => {
    const testApp = await world();
    const { app, customer, node, context } = testApp;
    const start = await allowList(app, node);
    const first = await connect(testApp, customer);
    const { credential, node_tag: tag } = await credentialOf(testApp, first.deviceId);
    const added = await allowList(app, node, { since: start.version });
    const paidUntil = (
      (await context.database.get<{ end_date: number }>(
        "SELECT end_date FROM subscriptions ORDER BY id DESC LIMIT 1",
      )) ?? { end_date: 0 }
    ).end_date;
    // DESIGN §8: each entry carries the time access has left, not the reservation's half hour.
    expect(entryWithId(added, credential)?.remainingMs).toBeGreaterThanOrEqual(
      paidUntil - context.clock.now() - 60_000,
    );

    // Half an hour on, its slot is free without any call; the credential stays while nothing else has the slot.
    await advanceDays(app, minutes(31));
    expect(await profileOf(testApp, customer)).toMatchObject({ devices: [], availableDevices: 1 });
    expect(entryWithId(await allowList(app, node), credential)).toBeDefined();

    // Another device takes the slot: the pending one leaves the nodes.
    const before = await allowList(app, node);
    const activated = await callsOf(testApp, customer).activate("phone-1");
    expect(activated.status).toBe(200);
    expect(await allowList(app, node, { since: before.version })).toMatchObject({ removed: [tag] });
    expect(entryWithId(await allowList(app, node), credential)).toBeUndefined();
  });

  test("a pending device whose reservation ran out takes the slot again when its link is used while the slot is free", async () => {
    const testApp = await world();
    const { app, customer, node } = testApp;
    const first = await connect(testApp, customer);
    const { credential } = await credentialOf(testApp, first.deviceId);
    await advanceDays(app, minutes(31));
    expect((await profileOf(testApp, customer)).availableDevices).toBe(1);
    expect((await fetchLink(testApp, first)).status).toBe(200);
    expect((await credentialOf(testApp, first.deviceId)).pending_until).toBeNull();
    expect(entryWithId(await allowList(app, node), credential)?.remainingMs).toBeGreaterThan(
      pendingReservationMs,
    );
    expect((await profileOf(testApp, customer)).availableDevices).toBe(0);
  });

  test("a reservation that ran out does not take a slot another device took meanwhile: its link says it is beyond the slots", async () => {
    const testApp = await world();
    const { customer } = testApp;
    const first = await connect(testApp, customer);
    await callsOf(testApp, customer).release(first.deviceId);
    const activated = await callsOf(testApp, customer).activate("phone-1");
    expect(activated.status).toBe(200);
    const answer = await fetchLink(testApp, first);
    expect(answer.status).toBe(200);
    const announce = answer.headers.get("announce") ?? "";
    expect(Buffer.from(announce.replace(/^base64:/, ""), "base64").toString()).toContain("has no free slot");
    expect((await credentialOf(testApp, first.deviceId)).pending_until).not.toBeNull();
    expect((await callsOf(testApp, customer).confirm(first.deviceId)).status).toBe(409);
    // Nor can Connect hold it again while no slot is free.
    expect((await callsOf(testApp, customer).connect()).status).toBe(409);
  });

  test("opening and closing the panel in a loop is counted as link changes", async () => {
    const testApp = await world();
    const { customer } = testApp;
    const calls = callsOf(testApp, customer);
    const { deviceId } = await connect(testApp, customer);
    for (let change = 1; change < linkChangesPerHour; change++) {
      await calls.release(deviceId);
      await connect(testApp, customer);
    }
    await calls.release(deviceId);
    const refused = await calls.connect();
    expect(refused.status).toBe(429);
  });
});
