import type { Database } from "../../../db/database";
import { statement } from "../../../db/database";
import type { DevicePlatform } from "../../../db/queries/devices";
import { hasAccess, subscriptions } from "../../../db/queries/subscriptions";
import { AppError } from "../../platform/errors";
import { randomToken } from "../../platform/random";
import { availableDevices, deviceView } from "../profile/service";

const hash = (secret: string) => new Bun.CryptoHasher("sha256").update(secret).digest("hex");

type DeviceRow = {
  id: number;
  user_id: number;
  device_id: string;
  is_active: number;
  detached_at: number | null;
  first_activation_at: number | null;
};

/**
 * The app activates a device for the signed-in customer. A free slot makes it active
 * and gives it a fresh access key (shown once); without one it stays unactivated.
 */
export async function activateDevice(
  database: Database,
  userId: number,
  device: { deviceId: string; deviceName: string; platform: DevicePlatform },
  now: number,
) {
  // One transaction: the free-slot count and the activation that takes the slot go
  // together, so two devices activated at once cannot both take the last slot.
  return database.transaction(async () => {
    const subscription = await subscriptions.current(database, userId);
    if (!hasAccess(subscription, now))
      throw new AppError("CONFLICT", "There is no active subscription to add a device to.");
    let row: DeviceRow | undefined = await statement<DeviceRow, [number, string]>(
      database,
      "SELECT * FROM devices WHERE user_id = ? AND device_id = ?",
    ).get(userId, device.deviceId);
    if (!row) {
      row = await statement<DeviceRow, [number, string, string, string, number]>(
        database,
        "INSERT INTO devices (user_id, device_id, device_name, platform, is_active, created_at) VALUES (?, ?, ?, ?, 0, ?) RETURNING *",
      ).get(userId, device.deviceId, device.deviceName, device.platform, now);
    } else if (row.detached_at !== null) {
      await statement(
        database,
        "UPDATE devices SET detached_at = NULL, is_active = 0, device_name = ? WHERE id = ?",
      ).run(device.deviceName, row.id);
      row = { ...row, detached_at: null, is_active: 0 };
    }
    if (!row) throw new Error("device insert returned nothing");
    if (row.is_active !== 1 && (await availableDevices(database, userId, subscription, now)) <= 0) {
      return { isActivated: false as const };
    }
    const accessKey = `ak_${randomToken(24)}`;
    await statement(
      database,
      "UPDATE devices SET is_active = 1, access_key_hash = ?, first_activation_at = COALESCE(first_activation_at, ?) WHERE id = ?",
    ).run(hash(accessKey), now, row.id);
    const saved = await statement<Parameters<typeof deviceView>[0], [number]>(
      database,
      "SELECT * FROM devices WHERE id = ?",
    ).get(row.id);
    if (!saved) throw new Error("device vanished");
    return { isActivated: true as const, accessKey, device: deviceView(saved) };
  });
}

export async function createNode(database: Database, name: string, now: number): Promise<string> {
  const key = `node_${randomToken(24)}`;
  await statement(database, "INSERT INTO vpn_nodes (name, key_hash, created_at) VALUES (?, ?, ?)").run(
    name,
    hash(key),
    now,
  );
  return key;
}

export async function nodeByKey(database: Database, key: string | null) {
  if (!key) throw new AppError("UNAUTHORIZED", "A node key is required.");
  const node = await statement<{ id: number; name: string }, [string]>(
    database,
    "SELECT id, name FROM vpn_nodes WHERE key_hash = ?",
  ).get(hash(key));
  if (!node) throw new AppError("UNAUTHORIZED", "Unknown node key.");
  return node;
}

type KeyOwner = { device_id: number; user_id: number; is_active: number; detached_at: number | null };

function ownerOf(database: Database, accessKey: string) {
  return statement<KeyOwner, [string]>(
    database,
    "SELECT id AS device_id, user_id, is_active, detached_at FROM devices WHERE access_key_hash = ?",
  ).get(hash(accessKey));
}

/** May this access key connect now? Only an active, attached device of a customer with access. */
export async function authorizeKey(
  database: Database,
  accessKey: string,
  now: number,
): Promise<{ allowed: boolean; reason?: string }> {
  const owner = await ownerOf(database, accessKey);
  if (!owner) return { allowed: false, reason: "unknown key" };
  if (owner.is_active !== 1 || owner.detached_at !== null)
    return { allowed: false, reason: "device not active" };
  if (!hasAccess(await subscriptions.current(database, owner.user_id), now))
    return { allowed: false, reason: "no active subscription" };
  return { allowed: true };
}

export async function recordConnection(
  database: Database,
  nodeName: string,
  accessKey: string,
  userIp: string | null,
  success: boolean,
  now: number,
): Promise<void> {
  const owner = await ownerOf(database, accessKey);
  if (!owner) throw new AppError("NOT_FOUND", "No device has this access key.");
  await statement(
    database,
    "INSERT INTO connection_logs (user_id, device_id, server_name, connected_at, user_ip, success) VALUES (?, ?, ?, ?, ?, ?)",
  ).run(owner.user_id, owner.device_id, nodeName, now, userIp, success ? 1 : 0);
}
