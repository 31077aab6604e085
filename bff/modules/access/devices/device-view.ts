import type { DeviceRow } from "../../../../db/queries/devices";

const iso = (time: number | null) => (time === null ? null : new Date(time).toISOString());

/** A device as the cabinet and the panel show it; never its credential or link. */
export function deviceView(device: DeviceRow) {
  return {
    id: device.id,
    deviceId: device.device_id,
    deviceName: device.device_name,
    platform: device.platform,
    created: iso(device.created_at),
    firstActivation: iso(device.first_activation_at),
    isActive: device.is_active === 1,
    pendingUntil: iso(device.pending_until === null ? null : Number(device.pending_until)),
  };
}

export type DeviceView = ReturnType<typeof deviceView>;
