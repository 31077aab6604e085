import { Elysia, t } from "elysia";
import type { AppContext } from "../../context";
import { customerErrors, customerIdentity, errorResponse } from "../../platform/schemas";
import { customerAuth } from "../customers/customer-auth";
import { activateDevice, authorizeKey, nodeByKey, recordConnection } from "./service";

const platform = t.Union(["ios", "android", "windows", "desktop", "other"].map((name) => t.Literal(name)));

/** The app's device activation and the VPN nodes' calls (DESIGN §8). */
export function vpnModule(context: AppContext) {
  const { database, clock } = context;
  return new Elysia({ tags: ["vpn"] })
    .use(customerAuth(context))
    .post(
      "/devices/activate",
      async ({ customer, body, set }) => {
        const result = await activateDevice(database, customer.id, body, clock.now());
        if (!result.isActivated) {
          set.status = 409;
          const message = "No free device slot: unlink a device in the cabinet or add a slot.";
          return { success: false, error: { code: "CONFLICT", message } };
        }
        return { success: true, accessKey: result.accessKey, device: result.device };
      },
      {
        customer: true,
        body: t.Object({
          ...customerIdentity,
          deviceId: t.String({ minLength: 1, maxLength: 128 }),
          deviceName: t.String({ minLength: 1, maxLength: 100 }),
          platform,
        }),
        response: { ...customerErrors },
        detail: {
          summary: "The app activates this device for the signed-in customer; answers its access key once",
        },
      },
    )
    .post(
      "/vpn/authorize",
      async ({ body, request }) => {
        await nodeByKey(database, request.headers.get("x-node-key"));
        return authorizeKey(database, body.accessKey, clock.now());
      },
      {
        body: t.Object({ accessKey: t.String({ minLength: 1, maxLength: 128 }) }),
        response: {
          200: t.Object({ allowed: t.Boolean(), reason: t.Optional(t.String()) }),
          401: errorResponse,
        },
        detail: { summary: "A VPN node (X-Node-Key) asks whether an access key may connect" },
      },
    )
    .post(
      "/vpn/connections",
      async ({ body, request }) => {
        const node = await nodeByKey(database, request.headers.get("x-node-key"));
        await recordConnection(
          database,
          node.name,
          body.accessKey,
          body.userIp ?? null,
          body.success,
          clock.now(),
        );
        return { success: true as const };
      },
      {
        body: t.Object({
          accessKey: t.String({ minLength: 1, maxLength: 128 }),
          userIp: t.Optional(t.String({ maxLength: 64 })),
          success: t.Boolean(),
        }),
        response: { 401: errorResponse, 404: errorResponse },
        detail: {
          summary: "A VPN node reports a connection (server, address, success); fills the panel's logs",
        },
      },
    );
}
