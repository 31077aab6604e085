import { describe, expect, test } from "vitest";
import { apiOf, dataOf, identityOf, sessionOf } from "../../../helpers/api";
import { makeTestApp, request } from "../../../helpers/app";
import { asCustomer, type SignedIn, signIn } from "../../../helpers/customers";
import { cards, order, payWithCard } from "../../../helpers/payments";

/**
 * Device names come from client apps (the activation's body, the first fetch's headers):
 * the app's own name for the device is preferred, control, bidi and invisible characters
 * go, spaces collapse, and the name is cut to 64 characters. It stays text everywhere.
 */
type TestApp = Awaited<ReturnType<typeof makeTestApp>>;

const hostile = "<img src=x onerror=alert(1)> Support: call +7 900";

async function payingCustomer({ app }: TestApp, email: string) {
  const customer = await signIn(app, email);
  expect((await payWithCard(app, (await order(app, customer)).invoiceId, cards.success)).success).toBe(true);
  return customer;
}

async function connectedLink({ app }: TestApp, customer: SignedIn) {
  const { deviceId, subscriptionUrl } = await dataOf(
    apiOf(app).profile.devices.connect.post(identityOf(customer), sessionOf(customer)),
  );
  return { deviceId, path: new URL(subscriptionUrl).pathname };
}

/** Text as an app sends it in a header: its UTF-8 bytes, which a header carries one per character. */
const asHeader = (text: string) => Buffer.from(text, "utf8").toString("latin1");

const nameOf = async ({ context }: TestApp, deviceId: string) =>
  (
    await context.database.get<{ device_name: string }>(
      "SELECT device_name FROM devices WHERE device_id = ?",
      [deviceId],
    )
  )?.device_name;

describe("a device's name from its app", () => {
  test("a name in UTF-8 (Cyrillic, Chinese) reads as written", async () => {
    const testApp = await makeTestApp();
    const customer = await payingCustomer(testApp, "names.utf8@example.com");
    const { deviceId, path } = await connectedLink(testApp, customer);
    await testApp.app.handle(request(path, { headers: { "x-device-name": asHeader("Телефон Анны 小米") } }));
    expect(await nameOf(testApp, deviceId)).toBe("Телефон Анны 小米");
  });

  test("the app's own name (x-device-name) is preferred to the model it reports", async () => {
    const testApp = await makeTestApp();
    const customer = await payingCustomer(testApp, "names.own@example.com");
    const { deviceId, path } = await connectedLink(testApp, customer);
    const fetched = await testApp.app.handle(
      request(path, {
        headers: { "user-agent": "Happ/3.1.2", "x-device-name": "Anna's phone", "x-device-model": hostile },
      }),
    );
    expect(fetched.status).toBe(200);
    expect(await nameOf(testApp, deviceId)).toBe("Anna's phone");
  });

  test("a model is kept as the text it is, and shown as text in the cabinet's answer and the export", async () => {
    const testApp = await makeTestApp();
    const customer = await payingCustomer(testApp, "names.model@example.com");
    const { deviceId, path } = await connectedLink(testApp, customer);
    await testApp.app.handle(request(path, { headers: { "x-device-model": hostile } }));
    expect(await nameOf(testApp, deviceId)).toBe(hostile);
    const profile = await dataOf(apiOf(testApp.app).profile.post(identityOf(customer), sessionOf(customer)));
    expect(profile.devices.map((device) => device.deviceName)).toEqual([hostile]);
    // The export's bytes as sent: the name is in them as JSON text, not escaped for a page.
    const exported = await testApp.app.handle(asCustomer(customer, "/api/profile/export"));
    expect(exported.headers.get("content-type")).toContain("application/json");
    expect(await exported.text()).toContain(JSON.stringify(hostile));
  });

  test("zero-width, bidi and line-separator characters go, spaces collapse, and the name is cut to 64", async () => {
    const testApp = await makeTestApp();
    const customer = await payingCustomer(testApp, "names.hidden@example.com");
    const { deviceId, path } = await connectedLink(testApp, customer);
    const hidden = `Pixel\u200b 8\u200e\u2028Pro\u061c\ufeff${"x".repeat(100)}`;
    await testApp.app.handle(request(path, { headers: { "x-device-name": asHeader(hidden) } }));
    const name = (await nameOf(testApp, deviceId)) ?? "";
    expect(name.startsWith("Pixel 8 Pro xxx")).toBe(true);
    expect(Array.from(name)).toHaveLength(64);
  });

  test("the activation's name is cleaned the same way", async () => {
    const testApp = await makeTestApp();
    const customer = await payingCustomer(testApp, "names.activate@example.com");
    const activated = await apiOf(testApp.app).devices.activate.post(
      {
        ...identityOf(customer),
        deviceId: "phone-1",
        deviceName: `  Galaxy\u200b   S24\u200f ${"y".repeat(80)}`,
        // The route's platform schema is a union built from a list, which Eden reads as `never`.
        platform: "android",
      },
      sessionOf(customer),
    );
    expect(activated.status).toBe(200);
    const name = (await nameOf(testApp, "phone-1")) ?? "";
    expect(name.startsWith("Galaxy S24 yyy")).toBe(true);
    expect(Array.from(name)).toHaveLength(64);
  });
});
