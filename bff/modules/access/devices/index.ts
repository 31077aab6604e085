import { Elysia } from "elysia";
import type { AppContext } from "../../../context";
import { reserveAttempt } from "../../../platform/attempt-limit";
import { AppError } from "../../../platform/errors";
import { customerAuth } from "../../session/customer-auth";
import { activateDevice } from "./device-activation";
import { connectDevice } from "./device-connect";
import { detachDevice } from "./device-detach";
import { deviceLinkAnswer, subscriptionOrigin, subscriptionUrl } from "./device-links";
import { pendingDeviceRoutes } from "./device-pending-routes";
import { deviceSlotRoutes } from "./device-slot-routes";
import { linkChangeLimit } from "./link-limits";
import {
  activateBody,
  activationResponses,
  connectBody,
  detachResponses,
  deviceBody,
  deviceLinkResponses,
} from "./model";

/** Answers holding a device's link or key: a secret, never kept by a cache on the way. */
const secretAnswer = { "cache-control": "no-store" };

/** Counts one change of a customer's devices or links against their limit. */
function countLinkChange({ database, clock }: AppContext, userId: number) {
  return reserveAttempt(database, linkChangeLimit(userId), clock.now(), "too_many_device_changes");
}

/** A customer's devices and their links (DESIGN §8): the cabinet's calls and the app's activation. */
export function accessModule(context: AppContext) {
  return new Elysia({ tags: ["cabinet"] })
    .use(deviceSlotRoutes(context))
    .use(pendingDeviceRoutes(context))
    .use(deviceLinkRoutes(context))
    .use(activationRoutes(context));
}

/** /profile/…: the cabinet connects a device, gives it a new link, or unlinks it. */
function deviceLinkRoutes(context: AppContext) {
  const { database, clock, config } = context;
  return new Elysia({ prefix: "/profile", tags: ["cabinet"] })
    .use(customerAuth(context))
    .post(
      "/devices/connect",
      async ({ customer, body, request, set }) => {
        Object.assign(set.headers, secretAnswer);
        // A new device (or its slot held again) is a change; asking for a link again is not.
        const connected = await connectDevice(database, customer.id, body.deviceId, clock.now(), () =>
          countLinkChange(context, customer.id),
        );
        return deviceLinkAnswer(subscriptionOrigin(config, request), connected.deviceId, connected.subToken);
      },
      {
        customer: true,
        body: connectBody,
        response: deviceLinkResponses,
        detail: {
          summary:
            "Connect a device: without deviceId a new (or the pending) device holds a free slot until its link is used; answers the device's subscription link and its QR code",
        },
      },
    )
    .post(
      "/devices/resetLink",
      async ({ customer, body, request, set }) => {
        Object.assign(set.headers, secretAnswer);
        const count = () => countLinkChange(context, customer.id);
        const connected = await connectDevice(database, customer.id, body.deviceId, clock.now(), count, true);
        return deviceLinkAnswer(subscriptionOrigin(config, request), connected.deviceId, connected.subToken);
      },
      {
        customer: true,
        body: deviceBody,
        response: deviceLinkResponses,
        detail: {
          summary:
            "Issue a device a new link and key: the old ones stop working on every node within seconds",
        },
      },
    )
    .post(
      "/detachDevice",
      async ({ customer, body }) => {
        await countLinkChange(context, customer.id);
        return detachDevice(database, customer.id, body.deviceId, clock.now());
      },
      {
        customer: true,
        body: deviceBody,
        response: detachResponses,
        detail: { summary: "Unlink a device, freeing its slot; its key leaves the nodes" },
      },
    );
}

/** POST /devices/activate: the app activates this device for the signed-in customer. */
function activationRoutes(context: AppContext) {
  const { database, clock, config } = context;
  return new Elysia({ prefix: "/devices", tags: ["cabinet"] }).use(customerAuth(context)).post(
    "/activate",
    async ({ customer, body, request, set }) => {
      Object.assign(set.headers, secretAnswer);
      const result = await activateDevice(database, customer.id, body, clock.now(), () =>
        countLinkChange(context, customer.id),
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
      body: activateBody,
      response: activationResponses,
      detail: {
        tags: ["app"],
        summary:
          "The app activates this device for the signed-in customer: answers its key (the credential's UUID) and subscription link",
      },
    },
  );
}
