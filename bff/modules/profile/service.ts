import type { Database } from "../../../db/database";
import { statement } from "../../../db/database";
import { type DeviceRow, devices } from "../../../db/queries/devices";
import { hasAccess, type SubscriptionRow, subscriptions } from "../../../db/queries/subscriptions";
import { AppError, type LocalizedText } from "../../platform/errors";
import { toUnits } from "../shop/pricing";
import { nextChargeAmount } from "../subscriptions/next-charge";
import { cardView } from "./card-removal";

const iso = (time: number | null) => (time === null ? null : new Date(time).toISOString());

export function deviceView(device: DeviceRow) {
  return {
    id: device.id,
    deviceId: device.device_id,
    deviceName: device.device_name,
    platform: device.platform,
    created: iso(device.created_at),
    firstActivation: iso(device.first_activation_at),
    isActive: device.is_active === 1,
  };
}

/** Device slots: one included, plus the extra ones bought, while access is open. */
export async function availableDevices(
  database: Database,
  userId: number,
  subscription: SubscriptionRow | undefined,
  now: number,
) {
  if (!hasAccess(subscription, now) || !subscription) return 0;
  return Math.max(0, 1 + subscription.extra_devices - (await devices.countActive(database, userId)));
}

/** The devices part of an answer; `subscription` saves reading it again when the caller has it. */
export async function devicesOf(
  database: Database,
  userId: number,
  now: number,
  subscription?: SubscriptionRow,
) {
  const current = subscription ?? (await subscriptions.current(database, userId));
  return {
    devices: (await devices.attached(database, userId)).map(deviceView),
    availableDevices: await availableDevices(database, userId, current, now),
  };
}

/** What the scheduler will really charge next, and when (nothing when renewal is off). */
export async function nextCharge(database: Database, subscription: SubscriptionRow | undefined, now: number) {
  if (subscription?.status !== "ACTIVE" || subscription.next_charge_at === null) {
    return { nextTransactionDate: null, amount: null };
  }
  return {
    nextTransactionDate: iso(subscription.next_charge_at),
    amount: toUnits(await nextChargeAmount(database, subscription, now)),
  };
}

/**
 * When the customer's access last ended (a lapsed or expired subscription), so a former
 * customer is told their subscription ended rather than that they never had one. A new,
 * unpaid order row after it does not hide it.
 */
export async function lastEndedAt(database: Database, userId: number, now: number): Promise<string | null> {
  const row = await statement<{ ended: number | null }, [number, number]>(
    database,
    `SELECT MAX(end_date) AS ended FROM subscriptions
       WHERE user_id = ? AND status IN ('EXPIRED', 'CANCELED', 'ACTIVE') AND end_date IS NOT NULL AND end_date <= ?`,
  ).get(userId, now);
  return iso(row?.ended ?? null);
}

export async function profileOf(database: Database, userId: number, now: number) {
  const subscription = await subscriptions.current(database, userId);
  return {
    success: true as const,
    userInfo: {
      expirationDate: iso(subscription?.end_date ?? null),
      subscriptionIsActive: hasAccess(subscription, now),
      subscriptionStatus: subscription?.status ?? "NOT_ACTIVE",
      ...(await nextCharge(database, subscription, now)),
      endedAt: hasAccess(subscription, now) ? null : await lastEndedAt(database, userId, now),
    },
    ...(await devicesOf(database, userId, now, subscription)),
    card: await cardView(database, userId),
  };
}

const notAttached: LocalizedText = {
  en: "This device is not attached to your account.",
  ru: "Это устройство не привязано к вашему аккаунту.",
  zh: "此设备未绑定到您的账户。",
  kk: "Бұл құрылғы аккаунтыңызға тіркелмеген.",
};

export async function detachDevice(database: Database, userId: number, deviceId: string, now: number) {
  const result = await devices.detach(database, userId, deviceId, now);
  if (result.changes === 0) throw new AppError("NOT_FOUND", notAttached);
  return { success: true as const, ...(await devicesOf(database, userId, now)) };
}
