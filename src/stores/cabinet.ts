import { atom } from "nanostores";
import { type ApiData, api, errorCode, errorMessage, isNetworkFailure } from "../lib/api-client";
import { forgetOfferLinkVisit } from "../lib/consent-skip";
import { formatDate, formatUnits, formatUntil } from "../lib/format";
import { $language, type TranslationKey, translate } from "../lib/i18n/runtime";
import { storageKeys, writeStorage } from "../lib/storage-keys";
import { showToast } from "../lib/toast/toast-store";
import { goToSignIn, needsSignIn } from "./auth";
import { $email, $expirationDate, $subscriptionIsActive, $subscriptionStatus, $uid } from "./customer";
import { pendingPrepaidToken } from "./prepaid-binding";
import { rememberReturnPath } from "./sign-in-flow";

export type ProfileData = ApiData<typeof api.profile.post>;
export type ShopData = ApiData<typeof api.shop.getShop.post>;
export type Device = ProfileData["devices"][number];

export const $profile = atom<ProfileData | undefined>();
export const $shop = atom<ShopData | undefined>();
/**
 * "failed": a call failed for another reason than a missing session. The cabinet then
 * says so and offers a retry; it never guesses the customer's status from a failure.
 * "deleted": the customer deleted their account; the cabinet confirms it.
 */
export const $cabinetState = atom<"loading" | "ready" | "failed" | "deleted">("loading");

/** Set when the page signs the customer in where they are instead of going to /login. */
export const $needsSignIn = atom(false);
let isSignInInPlace = false;

/** /mobileShop and /mobileProfile: the app's web view has no /login to go to and come back from. */
export function offerSignInInPlace(): void {
  isSignInInPlace = true;
}

function signInAgain(): void {
  if (isSignInInPlace) {
    // A Yandex sign-in leaves the page; it comes back here, without the app's query.
    rememberReturnPath(location.pathname);
    $needsSignIn.set(true);
  } else goToSignIn();
}

/** A call that hangs counts as failed after this long, so the retry is offered. */
const callTimeoutMs = 20_000;

type Answer<T> = { data: T | null; error: { status: unknown; value?: unknown } | null };

function withTimeout<T>(call: Promise<Answer<T>>): Promise<Answer<T>> {
  return Promise.race([
    call,
    new Promise<Answer<T>>((resolve) =>
      setTimeout(
        () => resolve({ data: null, error: { status: 0, value: new Error("timeout") } }),
        callTimeoutMs,
      ),
    ),
  ]);
}

/**
 * Only the server saying so means "sign in": no session, or a session of another account
 * than the one this browser holds. A 500, a timeout or a dropped connection does not.
 */
const isSignedOut = (answer: PromiseSettledResult<Answer<unknown>>) =>
  answer.status === "fulfilled" && needsSignIn(answer.value.error);

const identity = () => ({ email: $email.get(), uid: $uid.get() });

function rememberStatus(profile: ProfileData): void {
  $subscriptionStatus.set(profile.userInfo.subscriptionStatus);
  $subscriptionIsActive.set(String(profile.userInfo.subscriptionIsActive));
  $expirationDate.set(profile.userInfo.expirationDate ?? "");
}

/**
 * Profile and shop data together. Without a session the customer signs in and comes
 * back here; any other failure leaves the cabinet in "failed" with a retry, because
 * showing the purchase form to a paying customer would be a wrong fact about their access.
 */
export async function loadCabinet(): Promise<void> {
  if (!$email.get()) {
    signInAgain();
    return;
  }
  // A refresh after an action keeps the blocks on screen until the new answer is in.
  if ($cabinetState.get() !== "ready") $cabinetState.set("loading");
  const [profile, shop] = await Promise.allSettled([
    withTimeout(api.profile.post(identity())),
    withTimeout(api.shop.getShop.post(identity())),
  ]);
  if (isSignedOut(profile) || isSignedOut(shop)) {
    signInAgain();
    return;
  }
  const profileData = profile.status === "fulfilled" ? profile.value.data : null;
  const shopData = shop.status === "fulfilled" ? shop.value.data : null;
  if (!profileData || !shopData) {
    console.error("cabinet data failed", profile, shop);
    $cabinetState.set("failed");
    return;
  }
  $shop.set(shopData);
  $profile.set(profileData);
  rememberStatus(profileData);
  $cabinetState.set("ready");
}

const dateOf = (iso: string | null | undefined) => (iso ? formatDate(iso, $language.get()) : "");

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

export async function resumeSubscription(): Promise<void> {
  try {
    const { error } = await api.subscriptions.resume.post(identity());
    if (error) throw error;
    await loadCabinet();
    const info = $profile.get()?.userInfo;
    const shop = $shop.get();
    showToast(
      info?.nextTransactionDate && shop
        ? translate("cabinet.resumedToast", {
            date: dateOf(info.nextTransactionDate),
            amount: formatUnits(info.amount ?? 0, shop.currency),
          })
        : translate("cabinet.resumed"),
      "success",
    );
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
    const info = $profile.get()?.userInfo;
    showToast(
      info?.subscriptionIsActive && info.expirationDate
        ? translate("cabinet.cardRemovedUntil", { until: formatUntil(info.expirationDate, $language.get()) })
        : translate("cabinet.cardRemovedToast"),
      "success",
    );
  } catch (error) {
    console.error("card removal failed", error);
    showToast(errorMessage(error as { value?: unknown }) ?? translate("cabinet.cardRemoveFailed"), "error");
  }
  await loadCabinet();
}

/** Forgets the signed-in customer on this device: local storage, or the native app does it. */
function forgetCustomer(): void {
  // A signed-out visit is over: the next customer in this tab gives the consents again.
  forgetOfferLinkVisit();
  const bridge = (window as { logout?: { postMessage?: (message: string) => void } }).logout;
  if (bridge?.postMessage) bridge.postMessage("logout");
  else {
    // A paid purchase not attached yet was bought in this browser, not by the account
    // leaving: it stays for whoever signs in next, who is asked about it (never lost).
    const purchase = pendingPrepaidToken();
    localStorage.clear();
    if (purchase) {
      writeStorage(storageKeys.payment, "completed");
      writeStorage(storageKeys.userId, purchase);
    }
  }
}

/** Change account: end the session, clear local storage (or let the native app do it), go home. */
export async function changeAccount(): Promise<void> {
  try {
    await api.session.logout.post();
  } catch {
    // Signing out locally still proceeds.
  }
  forgetCustomer();
  location.assign("/");
}

/** Hands `data` to the browser as a JSON file download. */
function saveJson(data: unknown, fileName: string): void {
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: "application/json" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started by then; revoking at once can cancel it in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * Everything kept about the customer, saved as kannt-my-data.json. Answers the text to
 * show in place when it failed (a key, so it follows a language change), else nothing.
 */
export async function exportAccountData(): Promise<TranslationKey | undefined> {
  const { data, error } = await api.profile.export
    .post(identity())
    .catch((thrown: unknown) => ({ data: null, error: { status: 0, value: thrown } }));
  if (needsSignIn(error)) {
    signInAgain();
    return undefined;
  }
  if (!data || typeof data !== "object") {
    console.error("data export failed", error);
    return "cabinet.dataExportFailed";
  }
  saveJson(data, "kannt-my-data.json");
  return undefined;
}

/**
 * Deletes the customer's account (the server cancels, ends access, removes and anonymizes
 * in one go). On success this device forgets the customer and the cabinet says the
 * account is deleted; otherwise nothing changes here and the reason is answered.
 */
export async function deleteAccount(): Promise<TranslationKey | undefined> {
  const { data, error } = await api.profile.delete
    .post({ ...identity(), confirm: true })
    .catch((thrown: unknown) => ({ data: null, error: { status: 0, value: thrown } }));
  if (data?.success) {
    // The page stays: what it shows (the footer's support link) no longer names the account.
    $email.set("");
    forgetCustomer();
    $cabinetState.set("deleted");
    return undefined;
  }
  console.error("account deletion failed", error);
  if (needsSignIn(error)) {
    signInAgain();
    return undefined;
  }
  // A payment is under way and its outcome must not land on a deleted account. The cabinet
  // says so in its own words: the server's payment_pending message is the one every call gets
  // and does not say that the account could not be deleted.
  return errorCode(error) === "payment_pending" ? "cabinet.dataDeletePending" : "cabinet.dataDeleteFailed";
}

/** Applies an operator promo code to the purchase; the server validates it. */
export async function applyPromo(promoCode: string): Promise<string | undefined> {
  const { data, error } = await api.shop.applyPromo
    .post({ ...identity(), promoCode })
    .catch((thrown: unknown) => ({ data: null, error: { status: 0, value: thrown } }));
  // Eden hands a failed fetch over as the browser's own English "Failed to fetch".
  if (!data && (isNetworkFailure(error) || !error?.status)) return translate("purchase.promoNetwork");
  if (!data) return errorMessage(error) ?? translate("purchase.promoFailed");
  $shop.set(data);
  showToast(translate("purchase.promoApplied"), "success");
  return undefined;
}

/**
 * Buys one more device slot with the saved card: exactly the amount the screen states
 * (the shop's `deviceCharge`), or nothing. When that figure no longer holds, the server
 * says the new one and the cabinet is read again, so the screen states it before the next hold.
 */
export async function addDevice(): Promise<void> {
  const shop = $shop.get();
  const shown = shop?.deviceCharge?.amount;
  const { data, error } = await api.profile.addDevice.post({
    ...identity(),
    ...(shown === undefined ? {} : { amount: shown }),
  });
  if (!data) {
    showToast(errorMessage(error) ?? translate("cabinet.addDeviceFailed"), "error");
    if (errorCode(error) === "slot_price_changed") await loadCabinet();
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
