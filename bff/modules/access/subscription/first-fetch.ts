import type { Database } from "../../../../db/database";
import { devices, type FirstFetch, type TokenDevice } from "../../../../db/queries/devices";
import { type DeviceReport, platformOf, reportedName } from "./device-report";

/**
 * What an app's fetch adds to the device's record, or undefined when it adds nothing (the
 * apps refresh every few hours; those fetches write nothing). A device connected from the
 * cabinet has no name and the 'other' platform until its app first fetches the link.
 */
export function firstFetchOf(device: TokenDevice, report: DeviceReport): FirstFetch | undefined {
  const name = reportedName(report);
  const platform = platformOf(report.os);
  const adds =
    device.first_activation_at === null ||
    (device.device_name === "" && name !== undefined) ||
    (device.platform === "other" && platform !== undefined && platform !== "other") ||
    (device.hwid === null && report.hwid !== undefined) ||
    (device.device_os === null && report.os !== undefined) ||
    (device.device_model === null && report.model !== undefined);
  if (!adds) return undefined;
  return {
    deviceName: name ?? "",
    platform: platform ?? "other",
    hwid: report.hwid ?? null,
    deviceOs: report.os ?? null,
    deviceModel: report.model ?? null,
  };
}

/** Completes the record and returns the device's name as it now stands. */
export async function recordFetch(
  database: Database,
  device: TokenDevice,
  report: DeviceReport,
  now: number,
): Promise<string> {
  const fetch = firstFetchOf(device, report);
  if (!fetch) return device.device_name;
  await devices.completeFromFirstFetch(database, device.id, fetch, now);
  return device.device_name === "" ? fetch.deviceName : device.device_name;
}
