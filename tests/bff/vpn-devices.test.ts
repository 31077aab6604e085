import { describe, expect, test } from "vitest";
import { createNode } from "../../bff/modules/vpn/service";
import { makeTestApp, postJson, request } from "../helpers/app";
import { asCustomer, signIn } from "../helpers/customers";
import { bearer, makeOperator, tokensFor } from "../helpers/operators";
import { cards, order, payWithCard } from "../helpers/payments";

const { app, context } = await makeTestApp();
const nodeKey = await createNode(context.database, "nl-ams-1", context.clock.now());
const admin = await makeOperator(context, "vpn.admin", "admin");
const { accessToken } = await tokensFor(app, admin.username, admin.password);

const activate = (
  customer: Awaited<ReturnType<typeof signIn>>,
  deviceId: string,
  deviceName = "Pixel 8 Pro",
) => app.handle(asCustomer(customer, "/api/devices/activate", { deviceId, deviceName, platform: "android" }));

describe("devices and VPN nodes", () => {
  test("a device activates within the slots; the node lets its key in and logs its connections for the panel", async () => {
    const customer = await signIn(app, "vpn-user@example.com");
    expect((await activate(customer, "phone-1")).status).toBe(409);
    const options = await order(app, customer);
    await payWithCard(app, options.invoiceId, cards.success);

    const first = await activate(customer, "phone-1");
    expect(first.status).toBe(200);
    const { accessKey, device } = (await first.json()) as {
      accessKey: string;
      device: { deviceId: string; isActive: boolean };
    };
    expect(device).toMatchObject({ deviceId: "phone-1", isActive: true });
    const second = await activate(customer, "tablet-2", "Galaxy Tab S9 Ultra with a long name");
    expect(second.status).toBe(409);
    const profile = (await (await app.handle(asCustomer(customer, "/api/profile"))).json()) as {
      devices: { isActive: boolean }[];
      availableDevices: number;
    };
    expect(profile.devices.map((item) => item.isActive)).toEqual([true, false]);
    expect(profile.availableDevices).toBe(0);

    const node = { "x-node-key": nodeKey };
    expect(await (await app.handle(postJson("/api/vpn/authorize", { accessKey }, node))).json()).toEqual({
      allowed: true,
    });
    expect(
      (await app.handle(postJson("/api/vpn/authorize", { accessKey }, { "x-node-key": "node_wrong" })))
        .status,
    ).toBe(401);
    expect(
      await (await app.handle(postJson("/api/vpn/authorize", { accessKey: "ak_unknown" }, node))).json(),
    ).toMatchObject({ allowed: false });
    await app.handle(
      postJson("/api/vpn/connections", { accessKey, userIp: "203.0.113.5", success: true }, node),
    );
    await app.handle(
      postJson("/api/vpn/connections", { accessKey, userIp: "203.0.113.6", success: false }, node),
    );

    const userId = Number(options.accountId.replace("customer-", ""));
    const logs = (await (
      await app.handle(
        request(`/api/panel/logs?userId=${userId}`, { method: "POST", headers: bearer(accessToken) }),
      )
    ).json()) as unknown[];
    expect(logs).toEqual([
      expect.objectContaining({
        email: "vpn-user@example.com",
        deviceName: "Pixel 8 Pro",
        platform: "android",
        serverName: "nl-ams-1",
        userIp: "203.0.113.6",
        success: false,
      }),
      expect.objectContaining({ userIp: "203.0.113.5", success: true }),
    ]);

    // Unlinking in the cabinet frees the slot and shuts the key out.
    await app.handle(asCustomer(customer, "/api/profile/detachDevice", { deviceId: "phone-1" }));
    expect(
      await (await app.handle(postJson("/api/vpn/authorize", { accessKey }, node))).json(),
    ).toMatchObject({ allowed: false });
    expect((await activate(customer, "tablet-2")).status).toBe(200);
  });
});
