import type { Database } from "../../../../db/database";
import { devices } from "../../../../db/queries/devices";
import { AppError } from "../../../platform/errors";
import { devicesOf } from "./devices-part";
import { retireLink } from "./retired-link";

/**
 * Unlinks a device: its slot is free, its credential leaves the nodes (the log's trigger),
 * and its link answers "device removed" from then on. One transaction.
 */
export function detachDevice(database: Database, userId: number, deviceId: string, now: number) {
  return database.transaction(async () => {
    const device = await devices.byDeviceId(database, userId, deviceId);
    if (!device || device.detached_at !== null) throw new AppError("device_not_attached");
    await retireLink(database, device, "removed", now);
    await devices.detach(database, userId, deviceId, now);
    return { success: true as const, ...(await devicesOf(database, userId, now)) };
  });
}
