import { t } from "elysia";
import { customerErrors, customerIdentity, errorResponse, oneOf } from "../../../platform/schemas";

/** Bytes a device moved this UTC calendar month, as the nodes reported them. */
export const monthlyTraffic = t.Object({
  upload: t.Number({ description: "bytes" }),
  download: t.Number({ description: "bytes" }),
});

export const device = t.Object({
  id: t.Number(),
  deviceId: t.String(),
  deviceName: t.String({
    description: "empty until the app's first fetch of the subscription link names it",
  }),
  platform: t.String(),
  created: t.Nullable(t.String()),
  firstActivation: t.Nullable(t.String()),
  isActive: t.Boolean(),
  pendingUntil: t.Nullable(
    t.String({
      description:
        "connected in the cabinet, its link not used yet: its slot is held until then (null once in use)",
    }),
  ),
  traffic: monthlyTraffic,
});

/** The devices part of the cabinet's answers (profile, unlink, add a slot). */
export const devicesPart = { devices: t.Array(device), availableDevices: t.Number() };

/** A device's subscription link, answered only to its owner (connect, rotate). */
export const deviceLink = t.Object({
  success: t.Literal(true),
  deviceId: t.String(),
  subscriptionUrl: t.String(),
  qrSvg: t.String({ description: "the link's QR code as an SVG document" }),
});

/** The app's activation answer: the device's key (its credential's UUID) and link, to its owner only. */
export const activation = t.Object({
  success: t.Literal(true),
  accessKey: t.String({ description: "the device's credential (a UUID): a secret shown only to its owner" }),
  device: t.Object({
    id: t.Number(),
    deviceId: t.String(),
    deviceName: t.String(),
    platform: t.String(),
    created: t.Nullable(t.String()),
    firstActivation: t.Nullable(t.String()),
    isActive: t.Boolean(),
    pendingUntil: t.Nullable(t.String()),
  }),
  subscriptionUrl: t.String(),
});

export const deviceIdField = t.String({ minLength: 1, maxLength: 128 });

const platform = oneOf(["ios", "android", "windows", "desktop", "other"]);

/** Connect: without deviceId a new (or the pending) device. */
export const connectBody = t.Object({ ...customerIdentity, deviceId: t.Optional(deviceIdField) });
/** One of the customer's devices, by its deviceId (reset its link, unlink it). */
export const deviceBody = t.Object({ ...customerIdentity, deviceId: deviceIdField });
export const activateBody = t.Object({
  ...customerIdentity,
  deviceId: deviceIdField,
  deviceName: t.String({ minLength: 1, maxLength: 100 }),
  platform,
});

export const deviceLinkResponses = {
  200: deviceLink,
  ...customerErrors,
  404: errorResponse,
  409: errorResponse,
  429: errorResponse,
};
export const detachResponses = {
  200: t.Object({ success: t.Literal(true), ...devicesPart }),
  ...customerErrors,
  404: errorResponse,
  429: errorResponse,
};
export const activationResponses = {
  200: activation,
  ...customerErrors,
  409: errorResponse,
  429: errorResponse,
};
