import type { Database } from "../../../../db/database";
import { type CredentialedDevice, type DevicePlatform, devices } from "../../../../db/queries/devices";
import { subscriptions } from "../../../../db/queries/subscriptions";
import { AppError } from "../../../platform/errors";
import { cleanText } from "../subscription/device-report";
import { newCredential } from "./device-credentials";
import { confirmPending } from "./device-pending";
import { freeSlots, givesAccess, slotsOf } from "./device-slots";
import { deviceView } from "./device-view";
import { waitingDeviceLimit } from "./link-limits";

export type AppDevice = { deviceId: string; deviceName: string; platform: DevicePlatform };

/**
 * The app activates a device for the signed-in customer (`POST /api/devices/activate`).
 * A free slot puts it in use with its own credential, which it keeps on later activations
 * (the app may call again; a new key each time would cut its own running connection);
 * without a slot it stays attached and unused, with no credential, so nothing reaches the
 * nodes. A pending device (connected in the cabinet) activated takes its slot for good. A
 * device id the account has not got attached is a link change (`countChange`, the
 * link-change limit) and, when it would wait for a slot, is refused once the account has
 * `waitingDeviceLimit` devices waiting. One transaction, as connectDevice: the count goes
 * back with a refusal.
 */
export function activateDevice(
  database: Database,
  userId: number,
  reported: AppDevice,
  now: number,
  countChange: () => Promise<unknown>,
) {
  // The name is the app's word: kept as clean text, as a first fetch's is.
  const app = { ...reported, deviceName: cleanText(reported.deviceName) ?? "" };
  return database.transaction(async () => {
    const subscription = await subscriptions.current(database, userId);
    if (!givesAccess(subscription, now)) throw new AppError("device_needs_subscription");
    let device: CredentialedDevice | undefined = await devices.byDeviceId(database, userId, app.deviceId);
    const hasFreeSlot = (await freeSlots(database, userId, subscription, now)) > 0;
    if (!device || device.detached_at !== null) {
      await countChange();
      if (
        !hasFreeSlot &&
        (await devices.countWaiting(database, userId)) >= waitingDeviceLimit(slotsOf(subscription, now))
      )
        throw new AppError("too_many_waiting_devices");
    }
    if (!device) {
      device = await devices.byId(database, await devices.insertFromApp(database, userId, app, now));
    } else if (device.detached_at !== null) {
      await devices.reattach(database, device.id, app.deviceName);
      device = { ...device, detached_at: null, is_active: 0, device_name: app.deviceName };
    }
    if (!device) throw new Error("device insert returned nothing");
    if (device.is_active !== 1 && !hasFreeSlot) return { isActivated: false as const };
    // A pending device the app activates is used: it takes its slot for good, if it may.
    if (device.pending_until !== null && !(await confirmPending(database, userId, device.id)))
      return { isActivated: false as const };
    const isReady = device.is_active === 1 && device.first_activation_at !== null;
    if (!isReady || !device.credential || !device.sub_token) {
      const kept =
        device.credential && device.node_tag && device.sub_token
          ? { credential: device.credential, nodeTag: device.node_tag, subToken: device.sub_token }
          : newCredential();
      await devices.putInUse(database, device.id, kept, now);
    }
    const saved = await devices.byId(database, device.id);
    if (!saved?.credential || !saved.sub_token) throw new Error("device vanished");
    return {
      isActivated: true as const,
      credential: saved.credential,
      subToken: saved.sub_token,
      device: deviceView(saved),
    };
  });
}
