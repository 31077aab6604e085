import { isoTime } from "../../../../core/date-time";
import type { DeviceRow } from "../../../../db/queries/devices";

/** A device as the cabinet and the panel show it; never its credential or link. */
export function deviceView(device: DeviceRow) {
  return {
    id: device.id,
    deviceId: device.device_id,
    deviceName: device.device_name,
    platform: device.platform,
    created: isoTime(device.created_at),
    firstActivation: isoTime(device.first_activation_at),
    isActive: device.is_active === 1,
    pendingUntil: isoTime(device.pending_until),
  };
}

export type DeviceView = ReturnType<typeof deviceView>;
