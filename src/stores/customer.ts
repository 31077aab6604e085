import { persistentAtom } from "@nanostores/persistent";
import { computed } from "nanostores";
import { storageKeys } from "../lib/storage-keys";

/**
 * The customer's identity and sign-up choices as the spec stores them in local
 * storage (§3). The server trusts none of it: the session cookie decides.
 */
export const $email = persistentAtom<string>(storageKeys.email, "");
export const $uid = persistentAtom<string>(storageKeys.uid, "");
export const $photoUrl = persistentAtom<string>(storageKeys.photoUrl, "");
export const $providerId = persistentAtom<string>(storageKeys.providerId, "");
export const $isYandexAuth = persistentAtom<string>(storageKeys.isYandexAuth, "");
export const $promo = persistentAtom<string>(storageKeys.promo, "");
export const $period = persistentAtom<string>(storageKeys.period, "");
export const $tariff = persistentAtom<string>(storageKeys.tariff, "");
export const $rawPeriod = persistentAtom<string>(storageKeys.rawPeriod, "");
export const $rawTariff = persistentAtom<string>(storageKeys.rawTariff, "");
export const $expirationDate = persistentAtom<string>(storageKeys.expirationDate, "");
export const $subscriptionIsActive = persistentAtom<string>(storageKeys.subscriptionIsActive, "");
export const $subscriptionStatus = persistentAtom<string>(storageKeys.subscriptionStatus, "");

/** The body every customer call carries. */
export const $identity = computed([$email, $uid], (email, uid) => ({ email, uid }));

export type ProviderIdentity = { uid: string; email: string; photoURL: string; providerId: string };

export function rememberIdentity(identity: ProviderIdentity): void {
  $email.set(identity.email);
  $uid.set(identity.uid);
  $photoUrl.set(identity.photoURL);
  $providerId.set(identity.providerId);
  $isYandexAuth.set(identity.providerId === "yandex" ? "true" : "false");
}
