import type { Database } from "../../../../db/database";
import { devices } from "../../../../db/queries/devices";
import { type SubscriptionRow, subscriptions } from "../../../../db/queries/subscriptions";
import { dayMs } from "../../../platform/calendar";
import { slotsOf } from "./device-slots";
import { deviceView } from "./device-view";

/** The first day (days since the epoch, UTC) of `now`'s UTC calendar month. */
export function monthStartDay(now: number): number {
  const date = new Date(now);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1) / dayMs;
}

/**
 * The devices part of the cabinet's answers: the attached devices with this month's
 * traffic, and the free slots, from one devices query (the slots in use are counted from
 * the same rows). `subscription` saves reading it again when the caller has it.
 */
export async function devicesOf(
  database: Database,
  userId: number,
  now: number,
  subscription?: SubscriptionRow,
) {
  const current = subscription ?? (await subscriptions.current(database, userId));
  const attached = await devices.attachedWithTraffic(database, userId, monthStartDay(now), now);
  const inUse = attached.filter((device) => device.is_active === 1).length;
  return {
    devices: attached.map((device) => ({
      ...deviceView(device),
      traffic: { upload: device.upload, download: device.download },
    })),
    availableDevices: Math.max(0, slotsOf(current, now) - inUse),
  };
}
