import type { Database } from "../../../../db/database";
import { devices } from "../../../../db/queries/devices";
import { subscriptions } from "../../../../db/queries/subscriptions";
import { AppError } from "../../../platform/errors";
import { randomToken } from "../../../platform/random";
import { newCredential } from "./device-credentials";
import { pendingReservationMs, reservePending } from "./device-pending";
import { freeSlots, givesAccess } from "./device-slots";
import { retireLink } from "./retired-link";

export type ConnectedDevice = { deviceId: string; subToken: string };

/**
 * The cabinet connects a device (DESIGN §8). Without `deviceId` it takes a free slot for a
 * new device (409 when none is free): a pending one, whose credential is on the nodes at
 * once, before any app has fetched its link, and which holds the slot for
 * `pendingReservationMs`, until its link is used (device-pending.ts). A pending device whose
 * reservation was given back or ran out is that new device again (its link again, its slot
 * held again), so closing the panel unused leaves nothing behind; a pending device still
 * holding its slot is a device like any other, and the cabinet asks for its link by its
 * `deviceId` when Connect is pressed again. With `deviceId`, that device's
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
      const givenBack = await devices.givenBackPendingOf(database, userId, now);
      if (givenBack?.sub_token) {
        await reservePending(database, userId, givenBack, subscription, now, countChange);
        return { deviceId: givenBack.device_id, subToken: givenBack.sub_token };
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
