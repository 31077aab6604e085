import { describe, expect, test } from "vitest";
import { linkChangesPerHour } from "../../../../bff/modules/access/devices/link-limits";
import type { Language } from "../../../../core/languages";
import { makeTestApp, postJson } from "../../../helpers/app";
import { asCustomer, type SignedIn, signIn } from "../../../helpers/customers";
import { cards, order, payWithCard } from "../../../helpers/payments";

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

type Link = { success: true; deviceId: string; subscriptionUrl: string; qrSvg: string };
type Profile = {
  devices: {
    deviceId: string;
    deviceName: string;
    platform: string;
    firstActivation: string | null;
    isActive: boolean;
    traffic: { upload: number; download: number };
  }[];
  availableDevices: number;
};
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

const call = (app: App, customer: SignedIn, path: string, body: Record<string, unknown> = {}) =>
  app.handle(asCustomer(customer, path, body));

async function link(app: App, customer: SignedIn, path: string, body: Record<string, unknown> = {}) {
  const response = await call(app, customer, path, body);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as Link;
}

const profileOf = async (app: App, customer: SignedIn) =>
  (await (await call(app, customer, "/api/profile")).json()) as Profile;

const stored = (context: Context, email: string, deviceId: string) =>
  context.database.get<StoredDevice>(
    `SELECT credential, node_tag, sub_token, is_active, detached_at FROM devices
     WHERE device_id = ? AND user_id = (SELECT id FROM users WHERE email = ?)`,
    [deviceId, email],
  );

const tokenOf = (subscriptionUrl: string) => subscriptionUrl.split("/sub/")[1];

describe("connecting a device in the cabinet", () => {
  test("a new device takes the free slot, gets its own credential and link with a QR code, and waits for its app to name it", async () => {
    const { app, context } = await makeTestApp();
    const customer = await payingCustomer(app, "connect.one@example.com");
    const connected = await link(app, customer, "/api/profile/devices/connect");
    expect(connected.subscriptionUrl).toMatch(/^http:\/\/localhost\/sub\/[A-Za-z0-9_-]{32}$/);
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

    const profile = await profileOf(app, customer);
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
    expect(
      await link(app, customer, "/api/profile/devices/connect", { deviceId: connected.deviceId }),
    ).toEqual(connected);
    // The link is only the connect call's: the profile never carries it.
    expect(JSON.stringify(await profileOf(app, customer))).not.toContain(tokenOf(connected.subscriptionUrl));
  });

  test.each(["en", "ru", "kk"] as const)(
    "with every slot taken a new device is refused with 409 in the customer's language (%s), and a bought slot lets it in",
    async (language) => {
      const { app } = await makeTestApp();
      const customer = await payingCustomer(app, `connect.full.${language}@example.com`, language);
      await link(app, customer, "/api/profile/devices/connect");
      const refused = await call(app, customer, "/api/profile/devices/connect");
      expect(refused.status).toBe(409);
      expect(await refused.json()).toEqual({
        success: false,
        error: { code: "no_free_device_slot", message: noFreeSlot[language] },
      });
      expect((await call(app, customer, "/api/profile/addDevice")).status).toBe(200);
      const second = await link(app, customer, "/api/profile/devices/connect");
      const profile = await profileOf(app, customer);
      expect(profile.devices.map((device) => device.deviceId)).toContain(second.deviceId);
      expect(profile.availableDevices).toBe(0);
    },
  );

  test("without access there is nothing to connect to: 409 in the customer's language", async () => {
    const { app } = await makeTestApp();
    const customer = await signIn(app, "connect.unpaid@example.com", {
      headers: { "accept-language": "zh" },
    });
    const refused = await call(app, customer, "/api/profile/devices/connect");
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: unknown }).error).toEqual({
      code: "device_needs_subscription",
      message: noAccessZh,
    });
  });

  test("another account's device, or one that does not exist, is not found", async () => {
    const { app } = await makeTestApp();
    const owner = await payingCustomer(app, "connect.owner@example.com");
    const other = await payingCustomer(app, "connect.other@example.com");
    const { deviceId } = await link(app, owner, "/api/profile/devices/connect");
    for (const path of ["/api/profile/devices/connect", "/api/profile/devices/resetLink"]) {
      const foreign = await call(app, other, path, { deviceId });
      expect(foreign.status, path).toBe(404);
      expect(((await foreign.json()) as { error: unknown }).error).toEqual({
        code: "device_not_attached",
        message: notAttachedEn,
      });
      expect((await call(app, other, path, { deviceId: "no-such-device" })).status, path).toBe(404);
    }
    // Without a deviceId there is nothing to rotate.
    expect((await call(app, owner, "/api/profile/devices/resetLink")).status).toBe(400);
  });

  test("an older device without a credential gets one when connected", async () => {
    const { app, context } = await makeTestApp();
    const customer = await payingCustomer(app, "connect.older@example.com");
    const { deviceId } = await link(app, customer, "/api/profile/devices/connect");
    await context.database.run(
      "UPDATE devices SET credential = NULL, node_tag = NULL, sub_token = NULL WHERE device_id = ?",
      [deviceId],
    );
    const connected = await link(app, customer, "/api/profile/devices/connect", { deviceId });
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
    const first = await link(app, customer, "/api/profile/devices/connect");
    const before = await stored(context, customer.email, first.deviceId);
    const rotated = await link(app, customer, "/api/profile/devices/resetLink", { deviceId: first.deviceId });
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
    const device = await link(app, customer, "/api/profile/devices/connect");
    for (let change = 1; change < linkChangesPerHour; change++)
      await link(app, customer, "/api/profile/devices/resetLink", { deviceId: device.deviceId });
    const refused = await call(app, customer, "/api/profile/devices/resetLink", {
      deviceId: device.deviceId,
    });
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: unknown }).error).toEqual({
      code: "too_many_device_changes",
      message: expect.stringMatching(
        /^Слишком много изменений устройств за час\. Попробуйте снова через \d+ минут[уы]?\.$/,
      ),
    });
    expect(
      (await call(app, customer, "/api/profile/detachDevice", { deviceId: device.deviceId })).status,
    ).toBe(429);
    // Its own link, asked for again, changes nothing on the nodes.
    await link(app, customer, "/api/profile/devices/connect", { deviceId: device.deviceId });
    await app.handle(postJson("/api/dev/clock", { advanceDays: 1 / 24 + 1 / 1440 }));
    await link(app, customer, "/api/profile/devices/resetLink", { deviceId: device.deviceId });
  });
});

describe("the app's activation", () => {
  const activate = (app: App, customer: SignedIn, deviceId: string) =>
    call(app, customer, "/api/devices/activate", { deviceId, deviceName: "Pixel 9", platform: "android" });

  test("answers the device's credential as its key and its subscription link, the same on every activation", async () => {
    const { app, context } = await makeTestApp();
    const customer = await payingCustomer(app, "activate@example.com");
    const first = await activate(app, customer, "phone-1");
    expect(first.status).toBe(200);
    const answer = (await first.json()) as {
      accessKey: string;
      subscriptionUrl: string;
      device: { deviceId: string; isActive: boolean; firstActivation: string | null };
    };
    const device = await stored(context, customer.email, "phone-1");
    expect(answer.accessKey).toMatch(uuid);
    expect(answer.accessKey).toBe(device?.credential);
    expect(answer.subscriptionUrl).toBe(`http://localhost/sub/${device?.sub_token}`);
    expect(answer.device).toMatchObject({ deviceId: "phone-1", isActive: true });
    expect(answer.device.firstActivation).not.toBeNull();
    const again = (await (await activate(app, customer, "phone-1")).json()) as typeof answer;
    expect(again.accessKey).toBe(answer.accessKey);
    expect(again.subscriptionUrl).toBe(answer.subscriptionUrl);
  });

  test("a device past the slots waits unused, refused in the customer's language; the cabinet connects it once a slot is free", async () => {
    const { app, context } = await makeTestApp();
    const customer = await payingCustomer(app, "activate.full@example.com", "ru");
    expect((await activate(app, customer, "phone-1")).status).toBe(200);
    const refused = await activate(app, customer, "tablet-2");
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: unknown }).error).toEqual({
      code: "no_free_device_slot",
      message: noFreeSlot.ru,
    });
    expect((await profileOf(app, customer)).devices.map((device) => device.isActive)).toEqual([true, false]);
    expect((await stored(context, customer.email, "tablet-2"))?.credential).toBeNull();
    // Still no slot: the cabinet cannot connect it either.
    expect((await call(app, customer, "/api/profile/devices/connect", { deviceId: "tablet-2" })).status).toBe(
      409,
    );
    await call(app, customer, "/api/profile/detachDevice", { deviceId: "phone-1" });
    const connected = await link(app, customer, "/api/profile/devices/connect", { deviceId: "tablet-2" });
    expect(connected.deviceId).toBe("tablet-2");
    expect((await stored(context, customer.email, "tablet-2"))?.is_active).toBe(1);
  });
});

describe("answers carrying a device's key or link", () => {
  test("connect, resetLink and activate are never kept by a cache", async () => {
    const { app } = await makeTestApp();
    const customer = await payingCustomer(app, "no-store@example.com");
    const connected = await call(app, customer, "/api/profile/devices/connect");
    expect(connected.status).toBe(200);
    const { deviceId } = (await connected.json()) as Link;
    const rotated = await call(app, customer, "/api/profile/devices/resetLink", { deviceId });
    await call(app, customer, "/api/profile/detachDevice", { deviceId });
    const activated = await call(app, customer, "/api/devices/activate", {
      deviceId: "phone-1",
      deviceName: "Pixel 9",
      platform: "android",
    });
    for (const [name, response] of Object.entries({ connected, rotated, activated })) {
      expect(response.status, name).toBe(200);
      expect(response.headers.get("cache-control"), name).toBe("no-store");
    }
  });

  test("the activation's answer is declared in the API document, key and link included", async () => {
    const { app } = await makeTestApp();
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
    const connected = await link(app, customer, "/api/profile/devices/connect");
    const before = await stored(context, customer.email, connected.deviceId);
    const unlinked = await call(app, customer, "/api/profile/detachDevice", { deviceId: connected.deviceId });
    expect(unlinked.status).toBe(200);
    expect(await unlinked.json()).toEqual({ success: true, devices: [], availableDevices: 1 });
    const after = await stored(context, customer.email, connected.deviceId);
    expect(after).toMatchObject({
      is_active: 0,
      credential: null,
      sub_token: null,
      node_tag: before?.node_tag,
    });
    expect(after?.detached_at).not.toBeNull();
    expect(
      (await call(app, customer, "/api/profile/devices/connect", { deviceId: connected.deviceId })).status,
    ).toBe(404);
    expect(
      (await call(app, customer, "/api/profile/detachDevice", { deviceId: connected.deviceId })).status,
    ).toBe(404);
    // The freed slot takes a new device, with a new key.
    const next = await link(app, customer, "/api/profile/devices/connect");
    expect((await stored(context, customer.email, next.deviceId))?.credential).not.toBe(before?.credential);
  });
});
