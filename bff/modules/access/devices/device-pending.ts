import type { Database } from "../../../../db/database";
import { type CredentialedDevice, devices } from "../../../../db/queries/devices";
import type { SubscriptionRow } from "../../../../db/queries/subscriptions";
import { AppError } from "../../../platform/errors";
import { freeSlots } from "./device-slots";
import { devicesOf } from "./devices-part";

/**
 * How long a device the cabinet connects holds its slot while its link is unused (DESIGN
 * §8): long enough to install an app and scan the code, short enough that a closed tab
 * does not keep a paid slot from the customer's next device.
 */
export const pendingReservationMs = 30 * 60 * 1000;

/**
 * Holds the pending device's slot for another reservation. One still running for more
 * than half its length is left as it is: no write, nothing new for the nodes. One given
 * back, or run out, needs a free slot again (409 without one). `countChange` counts the
 * write in the link-change limit. Inside the caller's transaction.
 */
export async function reservePending(
  database: Database,
  userId: number,
  device: Pick<CredentialedDevice, "id" | "pending_until">,
  subscription: SubscriptionRow | undefined,
  now: number,
  countChange: () => Promise<unknown>,
) {
  const until = Number(device.pending_until);
  if (until > now + pendingReservationMs / 2) return;
  if (until <= now && (await freeSlots(database, userId, subscription, now)) <= 0)
    throw new AppError("no_free_device_slot");
  await countChange();
  await devices.reserveUntil(database, device.id, now + pendingReservationMs);
}

/**
 * The pending device is used (its app fetched the link, or the customer says it is added):
 * it becomes a device in use, if the slot rule gives it a slot (it holds its reservation,
 * or a slot is free again). Answers whether it is in use now. One transaction.
 */
export function confirmPending(database: Database, userId: number, id: number): Promise<boolean> {
  return database.transaction(async () => {
    const device = await devices.byId(database, id);
    if (!device || device.detached_at !== null || device.is_active !== 1) return false;
    if (device.pending_until === null) return true;
    const slot = await devices.slotStanding(database, userId, id);
    if (slot === undefined || Number(slot.is_within_slots) !== 1) return false;
    await devices.confirm(database, id);
    return true;
  });
}

async function attachedDevice(database: Database, userId: number, deviceId: string) {
  const device = await devices.byDeviceId(database, userId, deviceId);
  if (!device || device.detached_at !== null) throw new AppError("device_not_attached");
  return device;
}

/** `POST /api/profile/devices/confirm`: the customer says the device is added (409 with no slot for it). */
export async function confirmDevice(database: Database, userId: number, deviceId: string, now: number) {
  const device = await attachedDevice(database, userId, deviceId);
  if (!(await confirmPending(database, userId, device.id))) throw new AppError("no_free_device_slot");
  return { success: true as const, ...(await devicesOf(database, userId, now)) };
}

/**
 * `POST /api/profile/devices/release`: the Connect panel closed with the link unused. The
 * slot goes back at once; the device and its link stay for the next Connect, which
 * reserves it again. Its credential stays on the nodes while the slot rule still gives it
 * a slot (nobody has its credential: only a fetch of its link, which takes the slot, gives
 * it), and leaves them as soon as another device takes the slot. A device in use is left
 * as it is.
 */
export async function releaseDevice(database: Database, userId: number, deviceId: string, now: number) {
  await database.transaction(async () => {
    const device = await attachedDevice(database, userId, deviceId);
    if (device.pending_until !== null && Number(device.pending_until) > now)
      await devices.reserveUntil(database, device.id, now);
  });
  return { success: true as const, ...(await devicesOf(database, userId, now)) };
}
