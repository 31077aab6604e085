import { describe, expect, test } from "vitest";
import { linkChangesPerHour, waitingDeviceLimit } from "../../../../bff/modules/access/devices/link-limits";
import type { Language } from "../../../../core/languages";
import { apiOf, identityOf, refusalOf, sessionOf } from "../../../helpers/api";
import { makeTestApp } from "../../../helpers/app";
import { type SignedIn, signIn } from "../../../helpers/customers";
import { cards, order, payWithCard } from "../../../helpers/payments";

/**
 * The app's activation cannot flood the nodes: a new device id is a link change, devices
 * waiting for a slot are capped, and a device with no credential writes no allow-list change.
 */
type TestApp = Awaited<ReturnType<typeof makeTestApp>>;

const tooManyWaiting = {
  en: "Too many devices on your account are waiting for a free slot. Unlink the ones you no longer use in your cabinet, or add a slot.",
  ru: "Слишком много устройств вашего аккаунта ждут свободного места. Отвяжите в личном кабинете те, которыми больше не пользуетесь, или добавьте место.",
};

async function payingCustomer({ app }: TestApp, email: string, language: Language = "en") {
  const customer = await signIn(app, email, { headers: { "accept-language": language } });
  expect((await payWithCard(app, (await order(app, customer)).invoiceId, cards.success)).success).toBe(true);
  return customer;
}

const activate = ({ app }: TestApp, customer: SignedIn, deviceId: string) =>
  apiOf(app).devices.activate.post(
    // The route's platform schema is a union built from a list, which Eden reads as `never`.
    { ...identityOf(customer), deviceId, deviceName: "Pixel 9", platform: "android" },
    sessionOf(customer),
  );

const newestVersion = async ({ context }: TestApp) =>
  Number(
    (
      await context.database.get<{ version: number | null }>(
        "SELECT MAX(version) AS version FROM access_changes",
      )
    )?.version ?? 0,
  );

const deviceRows = async ({ context }: TestApp, email: string) =>
  Number(
    (
      await context.database.get<{ count: number }>(
        "SELECT COUNT(*) AS count FROM devices WHERE user_id = (SELECT id FROM users WHERE email = ?)",
        [email],
      )
    )?.count ?? 0,
  );

describe("the app's activation of new device ids", () => {
  test("200 calls with a new device id each make a few rows and one allow-list version, not 200", async () => {
    const testApp = await makeTestApp();
    const customer = await payingCustomer(testApp, "flood@example.com", "ru");
    const before = await newestVersion(testApp);
    const codes: string[] = [];
    for (let call = 0; call < 200; call++) {
      const answer = activate(testApp, customer, `made-up-${call}`);
      if ((await answer).status === 200) codes.push("activated");
      else {
        const error = await refusalOf(answer);
        codes.push(error.code);
        if (error.code === "too_many_waiting_devices") expect(error.message).toBe(tooManyWaiting.ru);
      }
    }
    const waiting = waitingDeviceLimit(1);
    // The one slot takes the first device; the next few wait for a slot; the rest are refused.
    expect(codes.slice(0, 1 + waiting + 1)).toEqual([
      "activated",
      ...Array(waiting).fill("no_free_device_slot"),
      "too_many_waiting_devices",
    ]);
    expect(new Set(codes.slice(1 + waiting))).toEqual(new Set(["too_many_waiting_devices"]));
    expect(await deviceRows(testApp, customer.email)).toBe(1 + waiting);
    // Only the device put in use reached the nodes; the waiting ones have no credential.
    expect((await newestVersion(testApp)) - before).toBe(1);
  });

  test("a waiting device attached, unlinked and brought back writes no allow-list change", async () => {
    const testApp = await makeTestApp();
    const customer = await payingCustomer(testApp, "waiting@example.com");
    expect((await activate(testApp, customer, "phone-1")).status).toBe(200);
    const before = await newestVersion(testApp);
    expect((await activate(testApp, customer, "tablet-2")).status).toBe(409);
    const unlinked = await apiOf(testApp.app).profile.detachDevice.post(
      { ...identityOf(customer), deviceId: "tablet-2" },
      sessionOf(customer),
    );
    expect(unlinked.status).toBe(200);
    expect((await activate(testApp, customer, "tablet-2")).status).toBe(409);
    expect(await newestVersion(testApp)).toBe(before);
  });

  test("each new device id counts as a link change; the app activating its own device again does not", async () => {
    const testApp = await makeTestApp();
    const customer = await payingCustomer(testApp, "activation.limit@example.com", "ru");
    expect((await activate(testApp, customer, "phone-1")).status).toBe(200);
    expect((await activate(testApp, customer, "phone-1")).status).toBe(200);
    expect((await activate(testApp, customer, "tablet-2")).status).toBe(409);
    // Two new ids are counted: the rest of the hour's changes go to link resets.
    for (let change = 2; change < linkChangesPerHour; change++) {
      const reset = await apiOf(testApp.app).profile.devices.resetLink.post(
        { ...identityOf(customer), deviceId: "phone-1" },
        sessionOf(customer),
      );
      expect(reset.status, `change ${change + 1}`).toBe(200);
    }
    const refused = await refusalOf(activate(testApp, customer, "laptop-3"));
    expect(refused.status).toBe(429);
    expect(refused.code).toBe("too_many_device_changes");
    // Its own device, activated again, is not a change.
    expect((await activate(testApp, customer, "phone-1")).status).toBe(200);
    expect(await deviceRows(testApp, customer.email)).toBe(2);
  });
});
