import type { Language } from "../../core/languages";
import type { Database } from "../database";
import { statement } from "../database";
import { cappedSum } from "../dialect";

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
  /** Set while the device is pending: its slot is held until then, unless it is used first. */
  pending_until: number | null;
};

/** A device with what puts it on the nodes: its credential, node tag and link token. */
export type CredentialedDevice = DeviceRow & {
  credential: string | null;
  node_tag: string | null;
  sub_token: string | null;
};

export type DeviceWithTraffic = DeviceRow & { upload: number; download: number };

export type Credential = { credential: string; nodeTag: string; subToken: string };

/** The device a subscription token names, with what its owner's answer needs. */
export type TokenDevice = {
  id: number;
  user_id: number;
  device_name: string;
  platform: DevicePlatform;
  is_active: 0 | 1;
  detached_at: number | null;
  credential: string | null;
  first_activation_at: number | null;
  hwid: string | null;
  device_os: string | null;
  device_model: string | null;
  language: Language;
  deleted_at: number | null;
  pending_until: number | null;
};

/** What a first fetch fills in; a field already set stays as it is. */
export type FirstFetch = {
  deviceName: string;
  platform: DevicePlatform;
  hwid: string | null;
  deviceOs: string | null;
  deviceModel: string | null;
};

const rowColumns =
  "id, user_id, device_id, device_name, platform, is_active, created_at, first_activation_at, detached_at, pending_until";

const credentialedColumns = `${rowColumns}, credential, node_tag, sub_token`;

/**
 * Attached and not a pending device whose reservation has run out: what the cabinet and
 * the panel list (a pending link given back is no device yet). Binds `now`.
 */
const listedDevice = (alias: string) =>
  `${alias}detached_at IS NULL AND (${alias}pending_until IS NULL OR ${alias}pending_until > ?)`;

/**
 * A customer's devices in use, each numbered by age (oldest first): only the first
 * `1 + extra_devices` of them hold a slot of the current subscription, so a customer who
 * buys again with fewer slots than devices still in use gets no more credentials on the
 * nodes than slots (DESIGN §8). Numbered among the devices in use alone, as slots are
 * counted (`devices.countInUse`), a pending device (at most one a customer: the cabinet
 * reuses it) after all the others: a reservation never pushes a device in use out, and
 * its running out moves no other device's number. It ends in its WHERE, so a caller may
 * narrow it with `AND user_id …`: whole customers only, or the numbering would change.
 */
export const devicesBySlot = `SELECT id, user_id, node_tag, credential, pending_until,
    ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY (pending_until IS NOT NULL), created_at, id) AS slot
  FROM devices WHERE is_active = 1 AND detached_at IS NULL`;

/**
 * The slot rule, written once: a device numbered `slot` by devicesBySlot holds one of the
 * `1 + extraDevices` slots of its owner's newest subscription. The allow-list (full and
 * delta) and the subscription answer all ask it, so a device the nodes refuse is exactly
 * the one whose link says it is beyond its slots (DESIGN §8).
 */
export const isWithinSlots = (slot: string, extraDevices: string) => `${slot} <= 1 + ${extraDevices}`;

/** isWithinSlots as a column: 1 or 0 on both engines (PostgreSQL would answer a boolean). */
export const withinSlotsColumn = (slot: string, extraDevices: string) =>
  `CASE WHEN ${isWithinSlots(slot, extraDevices)} THEN 1 ELSE 0 END`;

export const devices = {
  /**
   * Devices the customer still has, oldest first (sorted here: see subscriptions.current);
   * a pending device only while it holds its slot.
   */
  attached: async (db: Database, userId: number, now: number) =>
    (
      await statement<DeviceRow, [number, number]>(
        db,
        `SELECT ${rowColumns} FROM devices WHERE user_id = ? AND ${listedDevice("")}`,
      ).all(userId, now)
    ).sort((a, b) => a.created_at - b.created_at || a.id - b.id),

  /**
   * The customer's attached devices, oldest first, each with its bytes since `fromDay`:
   * the cabinet's one devices query (the traffic is folded in, so the profile costs no
   * extra round trip).
   */
  attachedWithTraffic: async (db: Database, userId: number, fromDay: number, now: number) =>
    (
      await statement<DeviceWithTraffic, [number, number, number, number]>(
        db,
        // Two index range scans per device (device_id, day): no temporary index or sort,
        // so a customer without traffic costs what the devices alone cost.
        `SELECT d.id, d.user_id, d.device_id, d.device_name, d.platform, d.is_active, d.created_at,
           d.first_activation_at, d.detached_at, d.pending_until,
           (SELECT ${cappedSum(db, "upload")} FROM device_traffic WHERE device_id = d.id AND day >= ?) AS upload,
           (SELECT ${cappedSum(db, "download")} FROM device_traffic WHERE device_id = d.id AND day >= ?) AS download
         FROM devices d WHERE d.user_id = ? AND ${listedDevice("d.")}`,
      ).all(fromDay, fromDay, userId, now)
    ).sort((a, b) => a.created_at - b.created_at || a.id - b.id),

  /** Whether the customer has ever had this device, attached or not (device ids are unique per customer). */
  exists: async (db: Database, userId: number, deviceId: string) =>
    (await statement<{ found: number }, [number, string]>(
      db,
      "SELECT 1 AS found FROM devices WHERE user_id = ? AND device_id = ?",
    ).get(userId, deviceId)) !== undefined,

  /** One of the customer's devices by the app's id, attached or not. */
  byDeviceId: (db: Database, userId: number, deviceId: string) =>
    statement<CredentialedDevice, [number, string]>(
      db,
      `SELECT ${credentialedColumns} FROM devices WHERE user_id = ? AND device_id = ?`,
    ).get(userId, deviceId),

  byId: (db: Database, id: number) =>
    statement<CredentialedDevice, [number]>(
      db,
      `SELECT ${credentialedColumns} FROM devices WHERE id = ?`,
    ).get(id),

  byToken: (db: Database, token: string) =>
    statement<TokenDevice, [string]>(
      db,
      `SELECT d.id, d.user_id, d.device_name, d.platform, d.is_active, d.detached_at, d.credential,
           d.first_activation_at, d.hwid, d.device_os, d.device_model, u.language, u.deleted_at, d.pending_until
         FROM devices d JOIN users u ON u.id = d.user_id WHERE d.sub_token = ?`,
    ).get(token),

  /**
   * Where the device stands in its owner's slots (the slot rule), or undefined when it is
   * not in use: numbered among that customer's devices alone, against the newest subscription.
   */
  slotStanding: (db: Database, userId: number, id: number) =>
    statement<{ slot: number | string; is_within_slots: number | string }, [number, number]>(
      db,
      `SELECT slots.slot, ${withinSlotsColumn("slots.slot", "COALESCE(s.extra_devices, 0)")} AS is_within_slots
         FROM (${devicesBySlot} AND user_id = ?) slots
         LEFT JOIN subscriptions s ON s.id = (SELECT MAX(id) FROM subscriptions WHERE user_id = slots.user_id)
       WHERE slots.id = ?`,
    ).get(userId, id),

  /** Devices holding a slot: in use, a pending one only until its reservation runs out. */
  countInUse: async (db: Database, userId: number, now: number) =>
    Number(
      (
        await statement<{ count: number }, [number, number]>(
          db,
          `SELECT COUNT(*) AS count FROM devices WHERE user_id = ? AND is_active = 1 AND ${listedDevice("")}`,
        ).get(userId, now)
      )?.count ?? 0,
    ),

  /**
   * A pending device of the customer's that holds no slot any more (its reservation given
   * back or run out), the newest: the next new device is that one again, with its link.
   */
  givenBackPendingOf: (db: Database, userId: number, now: number) =>
    statement<CredentialedDevice, [number, number]>(
      db,
      `SELECT ${credentialedColumns} FROM devices
         WHERE user_id = ? AND pending_until IS NOT NULL AND pending_until <= ? AND detached_at IS NULL
           AND is_active = 1 AND sub_token IS NOT NULL
         ORDER BY created_at DESC, id DESC LIMIT 1`,
    ).get(userId, now),

  /** Holds (or holds again) the pending device's slot until `until`, or gives it back (`until` = now). */
  reserveUntil: (db: Database, id: number, until: number) =>
    statement<never, [number, number]>(
      db,
      "UPDATE devices SET pending_until = ? WHERE id = ? AND pending_until IS NOT NULL",
    ).run(until, id),

  /** The pending device is used: it is a device in use from now on. */
  confirm: (db: Database, id: number) =>
    statement<never, [number]>(
      db,
      "UPDATE devices SET pending_until = NULL WHERE id = ? AND pending_until IS NOT NULL",
    ).run(id),

  /** Devices attached but not in use: waiting for a slot (an app that activated with none free). */
  countWaiting: async (db: Database, userId: number) =>
    Number(
      (
        await statement<{ count: number }, [number]>(
          db,
          "SELECT COUNT(*) AS count FROM devices WHERE user_id = ? AND is_active = 0 AND detached_at IS NULL",
        ).get(userId)
      )?.count ?? 0,
    ),

  /** The device's bytes since `firstDay` (days since the epoch, UTC), every node together. */
  async trafficSince(db: Database, id: number, firstDay: number) {
    const row = await statement<{ upload: number | null; download: number | null }, [number, number]>(
      db,
      `SELECT ${cappedSum(db, "upload")} AS upload, ${cappedSum(db, "download")} AS download
       FROM device_traffic WHERE device_id = ? AND day >= ?`,
    ).get(id, firstDay);
    return { upload: Number(row?.upload ?? 0), download: Number(row?.download ?? 0) };
  },

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

  /**
   * A device the cabinet connects before any app has fetched its link: pending until
   * `pendingUntil`, no name, platform 'other' and no first activation until the first
   * fetch fills them.
   */
  async insertConnected(
    db: Database,
    userId: number,
    deviceId: string,
    credential: Credential,
    now: number,
    pendingUntil: number,
  ) {
    const row = await statement<{ id: number }, [number, string, number, string, string, string, number]>(
      db,
      `INSERT INTO devices (user_id, device_id, device_name, platform, is_active, created_at, credential, node_tag,
           sub_token, pending_until)
         VALUES (?, ?, '', 'other', 1, ?, ?, ?, ?, ?) RETURNING id`,
    ).get(
      userId,
      deviceId,
      now,
      credential.credential,
      credential.nodeTag,
      credential.subToken,
      pendingUntil,
    );
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
   * Completes the device's record from the app's first fetch. Written so that two fetches
   * at once, or a later one, never overwrite what was set: a name, a platform other than
   * the cabinet's placeholder, the first activation and what the app first reported.
   */
  completeFromFirstFetch: (db: Database, id: number, fetch: FirstFetch, now: number) =>
    statement<unknown, [string, string, number, string | null, string | null, string | null, number]>(
      db,
      `UPDATE devices SET
           device_name = CASE WHEN device_name = '' THEN ? ELSE device_name END,
           platform = CASE WHEN platform = 'other' THEN ? ELSE platform END,
           first_activation_at = COALESCE(first_activation_at, ?),
           hwid = COALESCE(hwid, ?),
           device_os = COALESCE(device_os, ?),
           device_model = COALESCE(device_model, ?)
         WHERE id = ?`,
    ).run(fetch.deviceName, fetch.platform, now, fetch.hwid, fetch.deviceOs, fetch.deviceModel, id),

  /**
   * Unlinked: out of use, and its credential and link are forgotten, so a copied link or
   * key never comes back if the device is attached again. The node tag stays, for the
   * nodes to drop it.
   */
  detach: (db: Database, userId: number, deviceId: string, now: number) =>
    statement<never, [number, number, string]>(
      db,
      `UPDATE devices SET is_active = 0, detached_at = ?, credential = NULL, sub_token = NULL, pending_until = NULL
         WHERE user_id = ? AND device_id = ? AND detached_at IS NULL`,
    ).run(now, userId, deviceId),
};
