import { Elysia, t } from "elysia";
import type { AppContext } from "../../../context";
import { reserveAttempt } from "../../../platform/attempt-limit";
import { AppError } from "../../../platform/errors";
import { customerErrors, customerIdentity, errorResponse } from "../../../platform/schemas";
import { customerAuth } from "../../session/customer-auth";
import { activateDevice } from "./device-activation";
import { connectDevice } from "./device-connect";
import { detachDevice } from "./device-detach";
import { deviceLinkAnswer, subscriptionOrigin, subscriptionUrl } from "./device-links";
import { pendingDeviceRoutes } from "./device-pending-routes";
import { deviceSlotRoutes } from "./device-slot-routes";
import { linkChangeLimit } from "./link-limits";
import { activation, deviceIdField, deviceLink, devicesPart } from "./model";

const platform = t.Union(["ios", "android", "windows", "desktop", "other"].map((name) => t.Literal(name)));

/** Answers holding a device's link or key: a secret, never kept by a cache on the way. */
const secretAnswer = { "cache-control": "no-store" };

/** A customer's devices and their links (DESIGN §8): the cabinet's calls and the app's activation. */
export function accessModule(context: AppContext) {
  const { database, clock, config } = context;
  const countLinkChange = (userId: number) =>
    reserveAttempt(database, linkChangeLimit(userId), clock.now(), "too_many_device_changes");
  return new Elysia({ tags: ["cabinet"] })
    .use(customerAuth(context))
    .use(deviceSlotRoutes(context))
    .use(pendingDeviceRoutes(context))
    .post(
      "/profile/devices/connect",
      async ({ customer, body, request, set }) => {
        Object.assign(set.headers, secretAnswer);
        // A new device (or its slot held again) is a change; asking for a link again is not.
        const connected = await connectDevice(database, customer.id, body.deviceId, clock.now(), () =>
          countLinkChange(customer.id),
        );
        return deviceLinkAnswer(subscriptionOrigin(config, request), connected.deviceId, connected.subToken);
      },
      {
        customer: true,
        body: t.Object({ ...customerIdentity, deviceId: t.Optional(deviceIdField) }),
        response: {
          200: deviceLink,
          ...customerErrors,
          404: errorResponse,
          409: errorResponse,
          429: errorResponse,
        },
        detail: {
          summary:
            "Connect a device: without deviceId a new (or the pending) device holds a free slot until its link is used; answers the device's subscription link and its QR code",
        },
      },
    )
    .post(
      "/profile/devices/resetLink",
      async ({ customer, body, request, set }) => {
        Object.assign(set.headers, secretAnswer);
        const connected = await connectDevice(
          database,
          customer.id,
          body.deviceId,
          clock.now(),
          () => countLinkChange(customer.id),
          true,
        );
        return deviceLinkAnswer(subscriptionOrigin(config, request), connected.deviceId, connected.subToken);
      },
      {
        customer: true,
        body: t.Object({ ...customerIdentity, deviceId: deviceIdField }),
        response: {
          200: deviceLink,
          ...customerErrors,
          404: errorResponse,
          409: errorResponse,
          429: errorResponse,
        },
        detail: {
          summary:
            "Issue a device a new link and key: the old ones stop working on every node within seconds",
        },
      },
    )
    .post(
      "/profile/detachDevice",
      async ({ customer, body }) => {
        await countLinkChange(customer.id);
        return detachDevice(database, customer.id, body.deviceId, clock.now());
      },
      {
        customer: true,
        body: t.Object({ ...customerIdentity, deviceId: deviceIdField }),
        response: {
          200: t.Object({ success: t.Literal(true), ...devicesPart }),
          ...customerErrors,
          404: errorResponse,
          429: errorResponse,
        },
        detail: { summary: "Unlink a device, freeing its slot; its key leaves the nodes" },
      },
    )
    .post(
      "/devices/activate",
      async ({ customer, body, request, set }) => {
        Object.assign(set.headers, secretAnswer);
        const result = await activateDevice(database, customer.id, body, clock.now(), () =>
          countLinkChange(customer.id),
        );
        if (!result.isActivated) throw new AppError("no_free_device_slot");
        return {
          success: true as const,
          accessKey: result.credential,
          device: result.device,
          subscriptionUrl: subscriptionUrl(subscriptionOrigin(config, request), result.subToken),
        };
      },
      {
        customer: true,
        body: t.Object({
          ...customerIdentity,
          deviceId: deviceIdField,
          deviceName: t.String({ minLength: 1, maxLength: 100 }),
          platform,
        }),
        response: { 200: activation, ...customerErrors, 409: errorResponse, 429: errorResponse },
        detail: {
          tags: ["app"],
          summary:
            "The app activates this device for the signed-in customer: answers its key (the credential's UUID) and subscription link",
        },
      },
    );
}
