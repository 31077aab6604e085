import { atom } from "nanostores";
import { api, errorCode, errorMessage } from "../lib/api-client";
import { translate } from "../lib/i18n/runtime";
import { showToast } from "../lib/toast/toast-store";
import { needsSignIn } from "./auth";
import { $profile, addDevice, loadCabinet } from "./cabinet";
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

/** Bumped by every call and by closing: an answer that arrives for an older one is dropped. */
let generation = 0;

type Answer = {
  data: (DeviceLink & { success: true }) | null;
  error: { status: unknown; value?: unknown } | null;
};

const failedCall = (thrown: unknown): Answer => ({ data: null, error: { status: 0, value: thrown } });

/**
 * Takes a free slot for a new device (no `deviceId`) or reads an existing device's link.
 * Without a session the cabinet's own reload sends the customer to sign in.
 */
export async function connectDevice(deviceId?: string): Promise<void> {
  const call = ++generation;
  $connect.set({ step: "loading" });
  const { data, error }: Answer = await api.profile.devices.connect
    .post({ ...$identity.get(), ...(deviceId ? { deviceId } : {}) })
    .catch(failedCall);
  if (call !== generation) return;
  if (data?.success) {
    $connect.set({
      step: "ready",
      deviceId: data.deviceId,
      subscriptionUrl: data.subscriptionUrl,
      qrSvg: data.qrSvg,
    });
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

/**
 * The panel closed: the list is read again, so what the app reported on its first fetch
 * (name, platform, first activation) and a device just connected show up.
 */
export async function closeConnect(): Promise<void> {
  generation++;
  $connect.set({ step: "loading" });
  await loadCabinet();
}
