import { describe, expect, test } from "vitest";
import { linkChangesPerHour } from "../../../../bff/modules/access/devices/link-limits";
import type { Language } from "../../../../core/languages";
import { apiOf, dataOf, identityOf, refusalOf, sessionOf } from "../../../helpers/api";
import { makeTestApp } from "../../../helpers/app";
import { type SignedIn, signIn } from "../../../helpers/customers";
import { advanceDays, cards, order, payWithCard } from "../../../helpers/payments";

/** DESIGN §8: the cabinet connects devices, each with its own credential and subscription link. */
type App = Awaited<ReturnType<typeof makeTestApp>>["app"];
type Context = Awaited<ReturnType<typeof makeTestApp>>["context"];

/** What the refusals say, as the customer reads them (core/i18n `errors.*`). */
const noFreeSlot = {
  en: "Every device slot of your subscription is taken. Add a slot, or unlink a device you no longer use.",
  ru: "Все места для устройств в вашей подписке заняты. Добавьте место или отвяжите устройство, которым больше не пользуетесь.",
  kk: "Жазылымыңыздағы барлық құрылғы орындары бос емес. Орын қосыңыз немесе енді пайдаланбайтын құрылғыны ажыратыңыз.",
};
const noAccessZh = "没有可连接设备的有效订阅。请先在个人中心续订。";
const notAttachedEn = "This device is not attached to your account.";

type StoredDevice = {
  credential: string | null;
  node_tag: string | null;
  sub_token: string | null;
  is_active: number;
  detached_at: number | null;
};

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A customer registered in `language` who paid the first payment. */
async function payingCustomer(app: App, email: string, language: Language = "en") {
  const customer = await signIn(app, email, { headers: { "accept-language": language } });
  expect((await payWithCard(app, (await order(app, customer)).invoiceId, cards.success)).success).toBe(true);
  return customer;
}

/** The customer's device calls in the cabinet and the app, with their session and identity. */
function callsOf(app: App, customer: SignedIn) {
  const api = apiOf(app);
  const me = identityOf(customer);
  const session = sessionOf(customer);
  return {
    connect: (deviceId?: string) => api.profile.devices.connect.post({ ...me, deviceId }, session),
    resetLink: (deviceId: string) => api.profile.devices.resetLink.post({ ...me, deviceId }, session),
    detach: (deviceId: string) => api.profile.detachDevice.post({ ...me, deviceId }, session),
    addDevice: () => api.profile.addDevice.post(me, session),
    activate: (deviceId: string) =>
      api.devices.activate.post(
        // The route's platform schema is a union built from a list, which Eden reads as `never`.
        { ...me, deviceId, deviceName: "Pixel 9", platform: "android" },
        session,
      ),
    profile: () => dataOf(api.profile.post(me, session)),
  };
}

const stored = (context: Context, email: string, deviceId: string) =>
  context.database.get<StoredDevice>(
    `SELECT credential, node_tag, sub_token, is_active, detached_at FROM devices
     WHERE device_id = ? AND user_id = (SELECT id FROM users WHERE email = ?)`,
    [deviceId, email],
  );

/** Without SUBSCRIPTION_URL a link is made on the origin its call came to: the tests' own. */
const callOrigin = "http://localhost";

const tokenOf = (subscriptionUrl: string) => subscriptionUrl.split("/sub/")[1];

describe("connecting a device in the cabinet", () => {
  test("a new device takes the free slot, gets its own credential and link with a QR code, and waits for its app to name it", async () => {
    const { app, context } = await makeTestApp();
    const customer = await payingCustomer(app, "connect.one@example.com");
    const calls = callsOf(app, customer);
    const connected = await dataOf(calls.connect());
    expect(connected.subscriptionUrl.startsWith(`${callOrigin}/sub/`)).toBe(true);
    expect(tokenOf(connected.subscriptionUrl)).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(connected.qrSvg).toMatch(/^<svg[^>]*>[\s\S]*<\/svg>\s*$/);
    const device = await stored(context, customer.email, connected.deviceId);
    expect(device).toMatchObject({
      is_active: 1,
      detached_at: null,
      sub_token: tokenOf(connected.subscriptionUrl),
    });
    expect(device?.credential).toMatch(uuid);
    // The node tag is random, never the customer's e-mail or id.
    expect(device?.node_tag).toMatch(/^k[0-9a-f]{20}$/);

    const profile = await calls.profile();
    expect(profile).toMatchObject({
      devices: [
        expect.objectContaining({
          deviceId: connected.deviceId,
          deviceName: "",
          platform: "other",
          firstActivation: null,
          isActive: true,
          traffic: { upload: 0, download: 0 },
        }),
      ],
      availableDevices: 0,
    });
    // Asked again for the same device: the same link, nothing rotated.
    expect(await dataOf(calls.connect(connected.deviceId))).toEqual(connected);
    // The link is only the connect call's: the profile never carries it.
    expect(JSON.stringify(await calls.profile())).not.toContain(tokenOf(connected.subscriptionUrl));
  });

  test.each(["en", "ru", "kk"] as const)(
    "with every slot taken a new device is refused with 409 in the customer's language (%s), and a bought slot lets it in",
    async (language) => {
      const { app } = await makeTestApp();
      const customer = await payingCustomer(app, `connect.full.${language}@example.com`, language);
      const calls = callsOf(app, customer);
      await dataOf(calls.connect());
      const refused = await calls.connect();
      expect(refused.status).toBe(409);
      expect(refused.error?.value).toEqual({
        success: false,
        error: { code: "no_free_device_slot", message: noFreeSlot[language] },
      });
      expect((await calls.addDevice()).status).toBe(200);
      const second = await dataOf(calls.connect());
      const profile = await calls.profile();
      expect(profile.devices.map((device) => device.deviceId)).toContain(second.deviceId);
      expect(profile.availableDevices).toBe(0);
    },
  );

  test("without access there is nothing to connect to: 409 in the customer's language", async () => {
    const { app } = await makeTestApp();
    const customer = await signIn(app, "connect.unpaid@example.com", {
      headers: { "accept-language": "zh" },
    });
    expect(await refusalOf(callsOf(app, customer).connect())).toEqual({
      status: 409,
      code: "device_needs_subscription",
      message: noAccessZh,
    });
  });

  test("another account's device, or one that does not exist, is not found", async () => {
    const { app } = await makeTestApp();
    const owner = await payingCustomer(app, "connect.owner@example.com");
    const other = callsOf(app, await payingCustomer(app, "connect.other@example.com"));
    const { deviceId } = await dataOf(callsOf(app, owner).connect());
    for (const path of ["connect", "resetLink"] as const) {
      expect(await refusalOf(other[path](deviceId)), path).toEqual({
        status: 404,
        code: "device_not_attached",
        message: notAttachedEn,
      });
      expect((await other[path]("no-such-device")).status, path).toBe(404);
    }
    // Without a deviceId there is nothing to rotate.
    const withoutDevice = apiOf(app).profile.devices.resetLink.post(
      identityOf(owner) as never,
      sessionOf(owner),
    );
    expect((await withoutDevice).status).toBe(400);
  });

  test("an older device without a credential gets one when connected", async () => {
    const { app, context } = await makeTestApp();
    const customer = await payingCustomer(app, "connect.older@example.com");
    const calls = callsOf(app, customer);
    const { deviceId } = await dataOf(calls.connect());
    await context.database.run(
      "UPDATE devices SET credential = NULL, node_tag = NULL, sub_token = NULL WHERE device_id = ?",
      [deviceId],
    );
    const connected = await dataOf(calls.connect(deviceId));
    const device = await stored(context, customer.email, deviceId);
    expect(device?.credential).toMatch(uuid);
    expect(device?.node_tag).toMatch(/^k[0-9a-f]{20}$/);
    expect(device?.sub_token).toBe(tokenOf(connected.subscriptionUrl));
  });
});

describe("rotating a device's link", () => {
  test("issues a new key and link, keeps the node tag, and the old link is gone", async () => {
    const { app, context } = await makeTestApp();
    const customer = await payingCustomer(app, "rotate@example.com");
    const calls = callsOf(app, customer);
    const first = await dataOf(calls.connect());
    const before = await stored(context, customer.email, first.deviceId);
    const rotated = await dataOf(calls.resetLink(first.deviceId));
    expect(rotated.deviceId).toBe(first.deviceId);
    expect(rotated.subscriptionUrl).not.toBe(first.subscriptionUrl);
    expect(rotated.qrSvg).not.toBe(first.qrSvg);
    const after = await stored(context, customer.email, first.deviceId);
    expect(after?.credential).toMatch(uuid);
    expect(after?.credential).not.toBe(before?.credential);
    expect(after?.node_tag).toBe(before?.node_tag);
    expect(after?.sub_token).toBe(tokenOf(rotated.subscriptionUrl));
    const old = await context.database.get<{ count: number }>(
      "SELECT COUNT(*) AS count FROM devices WHERE sub_token = ? OR credential = ?",
      [tokenOf(first.subscriptionUrl) ?? "", before?.credential ?? ""],
    );
    expect(Number(old?.count)).toBe(0);
  });
});

describe("link changes", () => {
  test("30 an hour per customer: the next is 429 in the customer's language, asking for a link again is not counted, and an hour later it works", async () => {
    const { app } = await makeTestApp();
    const customer = await payingCustomer(app, "ac.limit@example.com", "ru");
    const calls = callsOf(app, customer);
    const device = await dataOf(calls.connect());
    for (let change = 1; change < linkChangesPerHour; change++)
      await dataOf(calls.resetLink(device.deviceId));
    expect(await refusalOf(calls.resetLink(device.deviceId))).toEqual({
      status: 429,
      code: "too_many_device_changes",
      message: expect.stringMatching(
        /^Слишком много изменений устройств за час\. Попробуйте снова через \d+ минут[уы]?\.$/,
      ),
    });
    expect((await calls.detach(device.deviceId)).status).toBe(429);
    // Its own link, asked for again, changes nothing on the nodes.
    await dataOf(calls.connect(device.deviceId));
    await advanceDays(app, 1 / 24 + 1 / 1440);
    await dataOf(calls.resetLink(device.deviceId));
  });
});

describe("the app's activation", () => {
  test("answers the device's credential as its key and its subscription link, the same on every activation", async () => {
    const { app, context } = await makeTestApp();
    const customer = await payingCustomer(app, "activate@example.com");
    const calls = callsOf(app, customer);
    const first = calls.activate("phone-1");
    expect((await first).status).toBe(200);
    const answer = await dataOf(first);
    const device = await stored(context, customer.email, "phone-1");
    expect(answer.accessKey).toMatch(uuid);
    expect(answer.accessKey).toBe(device?.credential);
    expect(answer.subscriptionUrl).toBe(`${callOrigin}/sub/${device?.sub_token}`);
    expect(answer.device).toMatchObject({ deviceId: "phone-1", isActive: true });
    expect(answer.device.firstActivation).not.toBeNull();
    const again = await dataOf(calls.activate("phone-1"));
    expect(again.accessKey).toBe(answer.accessKey);
    expect(again.subscriptionUrl).toBe(answer.subscriptionUrl);
  });

  test("a device past the slots waits unused, refused in the customer's language; the cabinet connects it once a slot is free", async () => {
    const { app, context } = await makeTestApp();
    const customer = await payingCustomer(app, "activate.full@example.com", "ru");
    const calls = callsOf(app, customer);
    expect((await calls.activate("phone-1")).status).toBe(200);
    expect(await refusalOf(calls.activate("tablet-2"))).toEqual({
      status: 409,
      code: "no_free_device_slot",
      message: noFreeSlot.ru,
    });
    expect((await calls.profile()).devices.map((device) => device.isActive)).toEqual([true, false]);
    expect((await stored(context, customer.email, "tablet-2"))?.credential).toBeNull();
    // Still no slot: the cabinet cannot connect it either.
    expect((await calls.connect("tablet-2")).status).toBe(409);
    await calls.detach("phone-1");
    const connected = await dataOf(calls.connect("tablet-2"));
    expect(connected.deviceId).toBe("tablet-2");
    expect((await stored(context, customer.email, "tablet-2"))?.is_active).toBe(1);
  });
});

describe("answers carrying a device's key or link", () => {
  test("connect, resetLink and activate are never kept by a cache", async () => {
    const { app } = await makeTestApp();
    const customer = await payingCustomer(app, "no-store@example.com");
    const calls = callsOf(app, customer);
    const connecting = calls.connect();
    const connected = await connecting;
    expect(connected.status).toBe(200);
    const { deviceId } = await dataOf(connecting);
    const rotated = await calls.resetLink(deviceId);
    await calls.detach(deviceId);
    const activated = await calls.activate("phone-1");
    for (const [name, answer] of Object.entries({ connected, rotated, activated })) {
      expect(answer.status, name).toBe(200);
      expect(answer.response.headers.get("cache-control"), name).toBe("no-store");
    }
  });

  test("the activation's answer is declared in the API document, key and link included", async () => {
    const { app } = await makeTestApp();
    // The OpenAPI document is the plugin's, outside the typed routes: read as the document it is.
    const document = (await (await app.handle(new Request("http://localhost/api/docs/json"))).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    const answer = JSON.stringify(document.paths["/api/devices/activate"]?.post?.responses["200"] ?? null);
    for (const field of ["success", "accessKey", "device", "subscriptionUrl", "firstActivation"])
      expect(answer).toContain(`"${field}"`);
  });
});

describe("unlinking a device", () => {
  test("frees its slot and forgets its key and link; it cannot be connected again by its id", async () => {
    const { app, context } = await makeTestApp();
    const customer = await payingCustomer(app, "unlink@example.com");
    const calls = callsOf(app, customer);
    const connected = await dataOf(calls.connect());
    const before = await stored(context, customer.email, connected.deviceId);
    const unlinked = await calls.detach(connected.deviceId);
    expect(unlinked.status).toBe(200);
    expect(unlinked.data).toEqual({ success: true, devices: [], availableDevices: 1 });
    const after = await stored(context, customer.email, connected.deviceId);
    expect(after).toMatchObject({
      is_active: 0,
      credential: null,
      sub_token: null,
      node_tag: before?.node_tag,
    });
    expect(after?.detached_at).not.toBeNull();
    expect((await calls.connect(connected.deviceId)).status).toBe(404);
    expect((await calls.detach(connected.deviceId)).status).toBe(404);
    // The freed slot takes a new device, with a new key.
    const next = await dataOf(calls.connect());
    expect((await stored(context, customer.email, next.deviceId))?.credential).not.toBe(before?.credential);
  });
});
