import { atom } from "nanostores";
import { api, errorCode, errorMessage } from "../lib/api-client";
import { translate } from "../lib/i18n/runtime";
import { showToast } from "../lib/toast/toast-store";
import { needsSignIn } from "./auth";
import { $profile, addDevice, type Device, loadCabinet } from "./cabinet";
import { $identity } from "./customer";

/** A device's subscription link as connect and resetLink answer it; `qrSvg` is the server's drawing of it. */
export type DeviceLink = { deviceId: string; subscriptionUrl: string; qrSvg: string };

/**
 * The Connect panel's state. "no-slot": a new device was asked for with every slot taken
 * (the server's `no_free_device_slot`, in the customer's words); the panel then offers to buy one.
 */
export type ConnectState =
  | { step: "loading" }
  | ({ step: "ready" } & DeviceLink)
  | { step: "no-slot"; message: string }
  | { step: "failed"; message: string };

export const $connect = atom<ConnectState>({ step: "loading" });

/** The "I've added it" call of a pending device: "saving" while it is on its way. */
export const $confirming = atom<"idle" | "saving">("idle");

/** Bumped by every call and by closing: an answer that arrives for an older one is dropped. */
let generation = 0;

type Answer = {
  data: (DeviceLink & { success: true }) | null;
  error: { status: unknown; value?: unknown } | null;
};

type DevicesAnswer = {
  data: { success: true; devices: Device[]; availableDevices: number } | null;
  error: { status: unknown; value?: unknown } | null;
};

const failedCall = (thrown: unknown) => ({ data: null, error: { status: 0, value: thrown } });

/**
 * A pending device the list shows (the server lists one only while it holds its slot): a
 * new device asked for again is that one, so a second press never takes a second slot.
 */
const heldPendingDevice = () => $profile.get()?.devices?.find((device) => device.pendingUntil !== null);

/**
 * Takes a free slot for a new device (no `deviceId`: the pending device the list shows,
 * if there is one; else the server makes one, or gives back the link of one whose
 * reservation ran out) or reads an existing device's link. The list is read again, so the
 * panel knows whether the device is pending (its slot held only until the link is used).
 * Without a session the cabinet's own reload sends the customer to sign in.
 */
export async function connectDevice(deviceId?: string): Promise<void> {
  const call = ++generation;
  $connect.set({ step: "loading" });
  const asked = deviceId ?? heldPendingDevice()?.deviceId;
  const { data, error }: Answer = await api.profile.devices.connect
    .post({ ...$identity.get(), ...(asked ? { deviceId: asked } : {}) })
    .catch(failedCall);
  if (call !== generation) return;
  if (data?.success) {
    $connect.set({
      step: "ready",
      deviceId: data.deviceId,
      subscriptionUrl: data.subscriptionUrl,
      qrSvg: data.qrSvg,
    });
    await loadCabinet();
    return;
  }
  if (needsSignIn(error)) {
    await loadCabinet();
    return;
  }
  const message = errorMessage(error) ?? translate("cabinet.connectFailed");
  $connect.set(
    errorCode(error) === "no_free_device_slot" && !deviceId
      ? { step: "no-slot", message }
      : { step: "failed", message },
  );
}

/**
 * A new link (and credential) for the device: the old one stops working on every node.
 * On failure the old link stays on screen, because it still works.
 */
export async function resetDeviceLink(deviceId: string): Promise<void> {
  const call = generation;
  const { data, error }: Answer = await api.profile.devices.resetLink
    .post({ ...$identity.get(), deviceId })
    .catch(failedCall);
  if (data?.success) {
    if (call === generation) {
      $connect.set({
        step: "ready",
        deviceId: data.deviceId,
        subscriptionUrl: data.subscriptionUrl,
        qrSvg: data.qrSvg,
      });
    }
    showToast(translate("cabinet.linkReset"), "success");
    return;
  }
  if (needsSignIn(error)) {
    await loadCabinet();
    return;
  }
  showToast(errorMessage(error) ?? translate("cabinet.resetLinkFailed"), "error");
}

/** Buys one more slot (the cabinet's hold-to-add flow) and, once it is there, connects the new device. */
export async function addSlotAndConnect(): Promise<void> {
  await addDevice();
  if (($profile.get()?.availableDevices ?? 0) > 0) await connectDevice();
}

export async function copyLink(subscriptionUrl: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(subscriptionUrl);
    showToast(translate("promo.copied"), "success");
  } catch {
    // No clipboard (an insecure page, a refused permission): the link is on screen to copy by hand.
    showToast(translate("promo.copyFailed"), "error");
  }
}

/** Whether the device is pending, as the list last read says; one not listed yet may be. */
export function isPendingDevice(deviceId: string): boolean {
  const device = $profile.get()?.devices?.find((candidate) => candidate.deviceId === deviceId);
  return device === undefined || device.pendingUntil !== null;
}

/**
 * "I've added it": the pending device takes its slot for good. The list takes the
 * server's answer; a refusal (no slot left for it) says why in the customer's words.
 */
export async function confirmAdded(deviceId: string): Promise<void> {
  $confirming.set("saving");
  const { data, error }: DevicesAnswer = await api.profile.devices.confirm
    .post({ ...$identity.get(), deviceId })
    .catch(failedCall);
  $confirming.set("idle");
  const profile = $profile.get();
  if (data?.success) {
    if (profile) $profile.set({ ...profile, devices: data.devices, availableDevices: data.availableDevices });
    showToast(translate("cabinet.connectConfirmed"), "success");
    return;
  }
  if (needsSignIn(error)) {
    await loadCabinet();
    return;
  }
  showToast(errorMessage(error) ?? translate("cabinet.connectConfirmFailed"), "error");
}

/**
 * The panel closed: a pending device's link was not used, so its slot goes back now (the
 * server keeps a device its app has used meanwhile, and gives a slot back by itself after
 * half an hour if this call never arrives). The list is read again, so what the app
 * reported on its first fetch (name, platform, first activation) shows up.
 */
export async function closeConnect(): Promise<void> {
  const shown = $connect.get();
  generation++;
  $connect.set({ step: "loading" });
  if (shown.step === "ready" && isPendingDevice(shown.deviceId))
    await api.profile.devices.release
      .post({ ...$identity.get(), deviceId: shown.deviceId })
      .catch(failedCall);
  await loadCabinet();
}
