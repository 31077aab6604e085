import type { Database } from "../../../db/database";
import { devices } from "../../../db/queries/devices";
import { subscriptions } from "../../../db/queries/subscriptions";
import { AppError } from "../../platform/errors";
import { randomToken } from "../../platform/random";
import { newCredential } from "./device-credentials";
import { pendingReservationMs, reservePending } from "./device-pending";
import { freeSlots, givesAccess } from "./device-slots";
import { retireLink } from "./retired-link";

export type ConnectedDevice = { deviceId: string; subToken: string };

/**
 * The cabinet connects a device (DESIGN §8). Without `deviceId` a new device is made
 * pending: it gets its credential now, so it is on the nodes before any app has fetched
 * its link, and holds a free slot for `pendingReservationMs`, until its link is used
 * (device-pending.ts). The customer's pending device, if there is one, is reused: its link
 * again and its slot held again, never a second device. With `deviceId`, that device's
 * link is answered (a device from before credentials, or one waiting for a slot, gets one
 * now, in use). `rotate` issues a new UUID and link token (the node tag stays), which drops
 * the old ones on every node. Every call that changes what the nodes hold is counted
 * (`countChange`, the link-change limit); asking again for a link changes nothing. One
 * transaction: the free-slot count and the write that takes the slot go together, so two
 * calls cannot both take the last one.
 */
export function connectDevice(
  database: Database,
  userId: number,
  deviceId: string | undefined,
  now: number,
  countChange: () => Promise<unknown>,
  rotate = false,
): Promise<ConnectedDevice> {
  return database.transaction(async () => {
    const subscription = await subscriptions.current(database, userId);
    if (!givesAccess(subscription, now)) throw new AppError("device_needs_subscription");
    if (deviceId === undefined) {
      const pending = await devices.pendingOf(database, userId);
      if (pending?.sub_token) {
        await reservePending(database, userId, pending, subscription, now, countChange);
        return { deviceId: pending.device_id, subToken: pending.sub_token };
      }
      if ((await freeSlots(database, userId, subscription, now)) <= 0)
        throw new AppError("no_free_device_slot");
      await countChange();
      const credential = newCredential();
      const newDeviceId = `cabinet-${randomToken(12)}`;
      await devices.insertConnected(
        database,
        userId,
        newDeviceId,
        credential,
        now,
        now + pendingReservationMs,
      );
      return { deviceId: newDeviceId, subToken: credential.subToken };
    }
    const device = await devices.byDeviceId(database, userId, deviceId);
    if (!device || device.detached_at !== null) throw new AppError("device_not_attached");
    const isInUse = device.is_active === 1;
    if (isInUse && device.pending_until !== null && device.credential && device.sub_token && !rotate) {
      await reservePending(database, userId, device, subscription, now, countChange);
      return { deviceId, subToken: device.sub_token };
    }
    if (!isInUse && (await freeSlots(database, userId, subscription, now)) <= 0)
      throw new AppError("no_free_device_slot");
    if (isInUse && device.credential && device.sub_token && !rotate)
      return { deviceId, subToken: device.sub_token };
    await countChange();
    const credential = newCredential();
    // The link it had stops working; an app still fetching it reads that it was replaced.
    await retireLink(database, device, "replaced", now);
    await devices.putInUse(database, device.id, credential, null);
    return { deviceId, subToken: credential.subToken };
  });
}
