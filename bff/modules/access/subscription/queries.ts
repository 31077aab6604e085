import { dayMs } from "../../../../core/calendar";
import type { Language } from "../../../../core/languages";
import type { Database } from "../../../../db/database";
import { statement } from "../../../../db/database";
import type { DevicePlatform } from "../device-rows";
import type { ReportedNode } from "./server-entries";

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
};

/** What a first fetch fills in; a field already set stays as it is. */
export type FirstFetch = {
  deviceName: string;
  platform: DevicePlatform;
  hwid: string | null;
  deviceOs: string | null;
  deviceModel: string | null;
};

export const subscriptionQueries = {
  deviceByToken: (database: Database, token: string) =>
    statement<TokenDevice, [string]>(
      database,
      `SELECT d.id, d.user_id, d.device_name, d.platform, d.is_active, d.detached_at, d.credential,
           d.first_activation_at, d.hwid, d.device_os, d.device_model, u.language, u.deleted_at
         FROM devices d JOIN users u ON u.id = d.user_id WHERE d.sub_token = ?`,
    ).get(token),

  /**
   * Enabled nodes that have told which inbounds they serve and reported within a day (wall
   * clock), oldest first: a node silent that long is gone or broken, and an app would keep
   * trying it. Agents report every 10 s, so an outage of the product itself does not empty
   * the list for long.
   */
  reportedNodes: (database: Database, wallNow: number) =>
    statement<ReportedNode, [number]>(
      database,
      `SELECT name, host, inbounds FROM vpn_nodes
         WHERE disabled_at IS NULL AND host IS NOT NULL AND inbounds <> '[]' AND last_seen_at >= ? ORDER BY id`,
    ).all(wallNow - dayMs),

  /** The device's bytes since `firstDay` (days since the epoch, UTC), every node together. */
  async trafficSince(database: Database, deviceId: number, firstDay: number) {
    const row = await statement<{ upload: number | null; download: number | null }, [number, number]>(
      database,
      "SELECT SUM(upload) AS upload, SUM(download) AS download FROM device_traffic WHERE device_id = ? AND day >= ?",
    ).get(deviceId, firstDay);
    return { upload: Number(row?.upload ?? 0), download: Number(row?.download ?? 0) };
  },

  /**
   * Completes the device's record from the app's first fetch. Written so that two fetches
   * at once, or a later one, never overwrite what was set: a name, a platform other than
   * the cabinet's placeholder, the first activation and what the app first reported.
   */
  completeDevice: (database: Database, deviceId: number, fetch: FirstFetch, now: number) =>
    statement<unknown, [string, string, number, string | null, string | null, string | null, number]>(
      database,
      `UPDATE devices SET
           device_name = CASE WHEN device_name = '' THEN ? ELSE device_name END,
           platform = CASE WHEN platform = 'other' THEN ? ELSE platform END,
           first_activation_at = COALESCE(first_activation_at, ?),
           hwid = COALESCE(hwid, ?),
           device_os = COALESCE(device_os, ?),
           device_model = COALESCE(device_model, ?)
         WHERE id = ?`,
    ).run(fetch.deviceName, fetch.platform, now, fetch.hwid, fetch.deviceOs, fetch.deviceModel, deviceId),
};
