import { Elysia, t } from "elysia";
import type { AppContext } from "../../../context";
import { customerErrors, customerIdentity, errorResponse } from "../../../platform/schemas";
import { customerAuth } from "../../session/customer-auth";
import { confirmDevice, releaseDevice } from "./device-pending";
import { deviceIdField, devicesPart } from "./model";

const answer = t.Object({ success: t.Literal(true), ...devicesPart });

/**
 * The Connect panel's two ends for a pending device (DESIGN §8): the customer says it is
 * added, which takes its slot for good, or closes the panel unused, which gives the slot
 * back at once. The app's first fetch of the link takes the slot as well.
 */
export function pendingDeviceRoutes(context: AppContext) {
  const { database, clock } = context;
  return new Elysia({ prefix: "/profile/devices", tags: ["cabinet"] })
    .use(customerAuth(context))
    .post(
      "/confirm",
      ({ customer, body }) => confirmDevice(database, customer.id, body.deviceId, clock.now()),
      {
        customer: true,
        body: t.Object({ ...customerIdentity, deviceId: deviceIdField }),
        response: { 200: answer, ...customerErrors, 404: errorResponse, 409: errorResponse },
        detail: {
          summary:
            "The customer added a pending device's link in the app: the device takes its slot for good (409 when none is free)",
        },
      },
    )
    .post(
      "/release",
      ({ customer, body }) => releaseDevice(database, customer.id, body.deviceId, clock.now()),
      {
        customer: true,
        body: t.Object({ ...customerIdentity, deviceId: deviceIdField }),
        response: { 200: answer, ...customerErrors, 404: errorResponse },
        detail: {
          summary:
            "The Connect panel closed with a pending device's link unused: its slot is free again; the link stays for the next Connect",
        },
      },
    );
}
