import type { Database } from "../../../db/database";
import { devices } from "../../../db/queries/devices";
import { AppError } from "../../platform/errors";
import { devicesOf } from "./devices-part";

/** Unlinks a device: its slot is free, and its credential leaves the nodes (the log's trigger). */
export async function detachDevice(database: Database, userId: number, deviceId: string, now: number) {
  const result = await devices.detach(database, userId, deviceId, now);
  if (result.changes === 0) throw new AppError("device_not_attached");
  return { success: true as const, ...(await devicesOf(database, userId, now)) };
}
