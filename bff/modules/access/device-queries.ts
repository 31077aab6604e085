import type { Database } from "../../../db/database";
import { statement } from "../../../db/database";
import type { DevicePlatform, DeviceRow } from "./device-rows";

/** A device with what puts it on the nodes: its credential, node tag and link token. */
export type CredentialedDevice = DeviceRow & {
  credential: string | null;
  node_tag: string | null;
  sub_token: string | null;
};

export type DeviceWithTraffic = DeviceRow & { upload: number; download: number };

export type Credential = { credential: string; nodeTag: string; subToken: string };

const columns = `id, user_id, device_id, device_name, platform, is_active, created_at, first_activation_at,
  detached_at, credential, node_tag, sub_token`;

export const accessDevices = {
  /**
   * The customer's attached devices, oldest first, each with its bytes since `fromDay`:
   * the cabinet's one devices query (the traffic is folded in, so the profile costs no
   * extra round trip).
   */
  attachedWithTraffic: async (db: Database, userId: number, fromDay: number) =>
    (
      await statement<DeviceWithTraffic, [number, number, number]>(
        db,
        // Two index range scans per device (device_id, day): no temporary index or sort,
        // so a customer without traffic costs what the devices alone cost.
        `SELECT d.id, d.user_id, d.device_id, d.device_name, d.platform, d.is_active, d.created_at,
           d.first_activation_at, d.detached_at,
           COALESCE((SELECT SUM(upload) FROM device_traffic WHERE device_id = d.id AND day >= ?), 0) AS upload,
           COALESCE((SELECT SUM(download) FROM device_traffic WHERE device_id = d.id AND day >= ?), 0) AS download
         FROM devices d WHERE d.user_id = ? AND d.detached_at IS NULL`,
      ).all(fromDay, fromDay, userId)
    ).sort((a, b) => a.created_at - b.created_at || a.id - b.id),

  /** One of the customer's devices by the app's id, attached or not. */
  byDeviceId: (db: Database, userId: number, deviceId: string) =>
    statement<CredentialedDevice, [number, string]>(
      db,
      `SELECT ${columns} FROM devices WHERE user_id = ? AND device_id = ?`,
    ).get(userId, deviceId),

  byId: (db: Database, id: number) =>
    statement<CredentialedDevice, [number]>(db, `SELECT ${columns} FROM devices WHERE id = ?`).get(id),

  countInUse: async (db: Database, userId: number) =>
    (
      await statement<{ count: number }, [number]>(
        db,
        "SELECT COUNT(*) AS count FROM devices WHERE user_id = ? AND is_active = 1 AND detached_at IS NULL",
      ).get(userId)
    )?.count ?? 0,

  /**
   * A device the cabinet connects before any app has fetched its link: no name, platform
   * 'other' and no first activation until the first fetch fills them.
   */
  async insertConnected(db: Database, userId: number, deviceId: string, credential: Credential, now: number) {
    const row = await statement<{ id: number }, [number, string, number, string, string, string]>(
      db,
      `INSERT INTO devices (user_id, device_id, device_name, platform, is_active, created_at, credential, node_tag,
           sub_token)
         VALUES (?, ?, '', 'other', 1, ?, ?, ?, ?) RETURNING id`,
    ).get(userId, deviceId, now, credential.credential, credential.nodeTag, credential.subToken);
    if (!row) throw new Error("device insert returned no id");
    return row.id;
  },

  /** An app's device seen for the first time: attached, not yet in use. */
  async insertFromApp(
    db: Database,
    userId: number,
    device: { deviceId: string; deviceName: string; platform: DevicePlatform },
    now: number,
  ) {
    const row = await statement<{ id: number }, [number, string, string, string, number]>(
      db,
      `INSERT INTO devices (user_id, device_id, device_name, platform, is_active, created_at)
         VALUES (?, ?, ?, ?, 0, ?) RETURNING id`,
    ).get(userId, device.deviceId, device.deviceName, device.platform, now);
    if (!row) throw new Error("device insert returned no id");
    return row.id;
  },

  /** An unlinked device the app brings back: attached again, not in use until a slot is found. */
  reattach: (db: Database, id: number, deviceName: string) =>
    statement<never, [string, number]>(
      db,
      "UPDATE devices SET detached_at = NULL, is_active = 0, device_name = ? WHERE id = ?",
    ).run(deviceName, id),

  /** In use, with `credential` (the node tag a device once had stays: nodes know it by it). */
  putInUse: (db: Database, id: number, credential: Credential, firstActivationAt: number | null) =>
    statement<never, [string, string, string, number | null, number]>(
      db,
      `UPDATE devices SET is_active = 1, credential = ?, node_tag = COALESCE(node_tag, ?), sub_token = ?,
         first_activation_at = COALESCE(first_activation_at, ?) WHERE id = ?`,
    ).run(credential.credential, credential.nodeTag, credential.subToken, firstActivationAt, id),

  /**
   * Unlinked: out of use, and its credential and link are forgotten, so a copied link or
   * key never comes back if the device is attached again. The node tag stays, for the
   * nodes to drop it.
   */
  detach: (db: Database, userId: number, deviceId: string, now: number) =>
    statement<never, [number, number, string]>(
      db,
      `UPDATE devices SET is_active = 0, detached_at = ?, credential = NULL, sub_token = NULL
         WHERE user_id = ? AND device_id = ? AND detached_at IS NULL`,
    ).run(now, userId, deviceId),
};
