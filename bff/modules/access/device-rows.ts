import type { Database } from "../../../db/database";
import { statement } from "../../../db/database";

export type DevicePlatform = "ios" | "android" | "windows" | "desktop" | "other";

export type DeviceRow = {
  id: number;
  user_id: number;
  device_id: string;
  device_name: string;
  platform: DevicePlatform;
  is_active: 0 | 1;
  created_at: number;
  first_activation_at: number | null;
  detached_at: number | null;
};

const columns =
  "id, user_id, device_id, device_name, platform, is_active, created_at, first_activation_at, detached_at";

export const devices = {
  /** Devices the customer still has, oldest first (sorted here: see subscriptions.current). */
  attached: async (db: Database, userId: number) =>
    (
      await statement<DeviceRow, [number]>(
        db,
        `SELECT ${columns} FROM devices WHERE user_id = ? AND detached_at IS NULL`,
      ).all(userId)
    ).sort((a, b) => a.created_at - b.created_at || a.id - b.id),

  /** Whether the customer has ever had this device, attached or not (device ids are unique per customer). */
  exists: async (db: Database, userId: number, deviceId: string) =>
    (await statement<{ found: number }, [number, string]>(
      db,
      "SELECT 1 AS found FROM devices WHERE user_id = ? AND device_id = ?",
    ).get(userId, deviceId)) !== undefined,

  async insert(
    db: Database,
    device: {
      userId: number;
      deviceId: string;
      deviceName: string;
      platform: DevicePlatform;
      isActive: boolean;
    },
    now: number,
  ): Promise<number> {
    const row = await statement<
      { id: number },
      [number, string, string, string, number, number, number | null]
    >(
      db,
      `INSERT INTO devices (user_id, device_id, device_name, platform, is_active, created_at, first_activation_at)
         VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    ).get(
      device.userId,
      device.deviceId,
      device.deviceName,
      device.platform,
      device.isActive ? 1 : 0,
      now,
      device.isActive ? now : null,
    );
    if (!row) throw new Error("device insert returned no id");
    return row.id;
  },
};
