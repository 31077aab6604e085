import { atom } from "nanostores";
import { api, errorMessage } from "../lib/api-client";
import { forgetOfferLinkVisit } from "../lib/consent-skip";
import { formatUnits } from "../lib/format";
import { translate } from "../lib/i18n/runtime";
import { showToast } from "../lib/toast/toast-store";
import { $email, $expirationDate, $subscriptionIsActive, $subscriptionStatus, $uid } from "./customer";

type Data<T> = T extends (...args: never[]) => Promise<{ data: infer D }> ? NonNullable<D> : never;
export type ProfileData = Data<typeof api.profile.post>;
export type ShopData = Data<typeof api.shop.getShop.post>;
export type Device = ProfileData["devices"][number];

export const $profile = atom<ProfileData | undefined>();
export const $shop = atom<ShopData | undefined>();
export const $cabinetState = atom<"loading" | "ready">("loading");

const identity = () => ({ email: $email.get(), uid: $uid.get() });

function rememberStatus(profile: ProfileData): void {
  $subscriptionStatus.set(profile.userInfo.subscriptionStatus);
  $subscriptionIsActive.set(String(profile.userInfo.subscriptionIsActive));
  $expirationDate.set(profile.userInfo.expirationDate ?? "");
}

/** Profile and shop data together; without shop data the cabinet cannot be shown (spec: go to /). */
export async function loadCabinet(): Promise<void> {
  if (!$email.get()) {
    location.assign("/");
    return;
  }
  const [profile, shop] = await Promise.allSettled([
    api.profile.post(identity()),
    api.shop.getShop.post(identity()),
  ]);
  if (shop.status === "rejected" || shop.value.error || !shop.value.data) {
    console.error("shop data failed", shop.status === "rejected" ? shop.reason : shop.value.error);
    location.assign("/");
    return;
  }
  $shop.set(shop.value.data);
  if (profile.status === "fulfilled" && profile.value.data) {
    $profile.set(profile.value.data);
    rememberStatus(profile.value.data);
  } else {
    console.error("profile failed", profile.status === "rejected" ? profile.reason : profile.value.error);
  }
  $cabinetState.set("ready");
}

export async function detachDevice(deviceId: string): Promise<void> {
  try {
    const { data, error } = await api.profile.detachDevice.post({ ...identity(), deviceId });
    const profile = $profile.get();
    if (error || !data || !profile) throw error ?? new Error("no profile");
    $profile.set({ ...profile, devices: data.devices, availableDevices: data.availableDevices });
  } catch (error) {
    console.error("detach failed", error);
    showToast(translate("cabinet.detachFailed"), "error");
  }
}

/** Cancel needs a stored e-mail (spec §5); failures are only logged; the cabinet is shown either way. */
export async function cancelSubscription(): Promise<void> {
  if (!$email.get()) return;
  try {
    const { error } = await api.subscriptions.cancel.post(identity());
    if (error) console.error("cancel failed", error);
  } catch (error) {
    console.error("cancel failed", error);
  }
  location.assign("/profile");
}

export async function resumeSubscription(): Promise<void> {
  try {
    const { error } = await api.subscriptions.resume.post(identity());
    if (error) throw error;
    showToast(translate("cabinet.resumed"), "success");
    await loadCabinet();
  } catch (error) {
    console.error("resume failed", error);
    // The server says why in the customer's language (e.g. no saved card to renew with).
    showToast(errorMessage(error as { value?: unknown }) ?? translate("cabinet.resumeFailed"), "error");
  }
}

/**
 * Removes the saved card (renewals stop, access stays to the end of the period). The
 * cabinet is read again either way, so what it shows is the server's state, also after
 * a failure.
 */
export async function removeCard(): Promise<void> {
  try {
    const { error } = await api.profile.removeCard.post(identity());
    if (error) throw error;
    showToast(translate("cabinet.cardRemovedToast"), "success");
  } catch (error) {
    console.error("card removal failed", error);
    showToast(errorMessage(error as { value?: unknown }) ?? translate("cabinet.cardRemoveFailed"), "error");
  }
  await loadCabinet();
}

/** Change account: end the session, clear local storage (or let the native app do it), go home. */
export async function changeAccount(): Promise<void> {
  try {
    await api.session.logout.post();
  } catch {
    // Signing out locally still proceeds.
  }
  // A signed-out visit is over: the next customer in this tab gives the consents again.
  forgetOfferLinkVisit();
  const bridge = (window as { logout?: { postMessage?: (message: string) => void } }).logout;
  if (bridge?.postMessage) bridge.postMessage("logout");
  else localStorage.clear();
  location.assign("/");
}

/** Applies an operator promo code to the purchase; the server validates it. */
export async function applyPromo(promoCode: string): Promise<string | undefined> {
  const { data, error } = await api.shop.applyPromo.post({ ...identity(), promoCode });
  if (!data) return errorMessage(error) ?? translate("purchase.promoFailed");
  $shop.set(data);
  showToast(translate("purchase.promoApplied"), "success");
  return undefined;
}

/** Buys one more device slot with the saved card (charged pro rata now). */
export async function addDevice(): Promise<void> {
  const shop = $shop.get();
  const { data, error } = await api.profile.addDevice.post(identity());
  if (!data) {
    showToast(errorMessage(error) ?? translate("cabinet.addDeviceFailed"), "error");
    return;
  }
  showToast(
    translate("cabinet.deviceAdded", {
      amount: shop ? formatUnits(data.charged, shop.currency) : String(data.charged),
    }),
    "success",
  );
  await loadCabinet();
}
