import type { Database } from "../../../db/database";
import { devices } from "../../../db/queries/devices";
import { subscriptions } from "../../../db/queries/subscriptions";
import { AppError } from "../../platform/errors";
import { randomToken } from "../../platform/random";
import { newCredential } from "./device-credentials";
import { freeSlots, givesAccess } from "./device-slots";
import { retireLink } from "./retired-link";

export type ConnectedDevice = { deviceId: string; subToken: string };

/**
 * The cabinet connects a device (DESIGN §8). Without `deviceId` a new device takes a free
 * slot and gets its credential now, so it is on the nodes before any app has fetched its
 * link; with one, that device's link is answered (a device from before credentials, or one
 * waiting for a slot, gets one now). `rotate` issues a new UUID and link token (the node
 * tag stays), which drops the old ones on every node. One transaction: the free-slot count
 * and the write that takes the slot go together, so two calls cannot both take the last one.
 */
export function connectDevice(
  database: Database,
  userId: number,
  deviceId: string | undefined,
  now: number,
  rotate = false,
): Promise<ConnectedDevice> {
  return database.transaction(async () => {
    const subscription = await subscriptions.current(database, userId);
    if (!givesAccess(subscription, now)) throw new AppError("device_needs_subscription");
    if (deviceId === undefined) {
      if ((await freeSlots(database, userId, subscription, now)) <= 0)
        throw new AppError("no_free_device_slot");
      const credential = newCredential();
      const newDeviceId = `cabinet-${randomToken(12)}`;
      await devices.insertConnected(database, userId, newDeviceId, credential, now);
      return { deviceId: newDeviceId, subToken: credential.subToken };
    }
    const device = await devices.byDeviceId(database, userId, deviceId);
    if (!device || device.detached_at !== null) throw new AppError("device_not_attached");
    const isInUse = device.is_active === 1;
    if (!isInUse && (await freeSlots(database, userId, subscription, now)) <= 0)
      throw new AppError("no_free_device_slot");
    if (isInUse && device.credential && device.sub_token && !rotate)
      return { deviceId, subToken: device.sub_token };
    const credential = newCredential();
    // The link it had stops working; an app still fetching it reads that it was replaced.
    await retireLink(database, device, "replaced", now);
    await devices.putInUse(database, device.id, credential, null);
    return { deviceId, subToken: credential.subToken };
  });
}
