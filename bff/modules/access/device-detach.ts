import type { Database } from "../../../db/database";
import { AppError } from "../../platform/errors";
import { accessDevices } from "./device-queries";
import { devicesOf } from "./devices-part";
import { accessWords } from "./words";

/** Unlinks a device: its slot is free, and its credential leaves the nodes (the log's trigger). */
export async function detachDevice(database: Database, userId: number, deviceId: string, now: number) {
  const result = await accessDevices.detach(database, userId, deviceId, now);
  if (result.changes === 0) throw new AppError("NOT_FOUND", accessWords.notAttached);
  return { success: true as const, ...(await devicesOf(database, userId, now)) };
}
