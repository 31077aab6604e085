import { api, isNetworkFailure } from "../lib/api-client";
import { translate } from "../lib/i18n/runtime";
import { readStorage, storageKeys } from "../lib/storage-keys";
import { queueToastForNextPage } from "../lib/toast/toast-store";
import {
  $expirationDate,
  $period,
  $promo,
  $subscriptionIsActive,
  $tariff,
  type ProviderIdentity,
  rememberIdentity,
} from "./customer";

export type SignInOutcome = "signed-in" | "refused" | "network-failure";
export type Credentialed = ProviderIdentity & { credential: string };

let settings: ReturnType<typeof fetchSettings> | undefined;

async function fetchSettings() {
  const { data, error } = await api.identity.providers.get();
  if (error) throw new Error("provider settings unavailable");
  return data;
}

/** Client ids and URLs of the sign-in providers (demo stand-ins when none are configured). */
export function providerSettings() {
  settings ??= fetchSettings().catch((error) => {
    settings = undefined;
    throw error;
  });
  return settings;
}

/** POST /api/register with the spec's body plus the provider credential. */
export async function registerCustomer(identity: Credentialed): Promise<SignInOutcome> {
  rememberIdentity(identity);
  try {
    const { data, error } = await api.register.post({
      uid: identity.uid,
      email: identity.email,
      photoURL: identity.photoURL,
      providerId: identity.providerId,
      referralCode: $promo.get(),
      period: Number($period.get()) || 1,
      tariff: Number($tariff.get()) || 1,
      credential: identity.credential,
      // A purchase paid before signing in (/instantPay) is bound to this account, once.
      prepaidToken:
        readStorage(storageKeys.payment) === "completed"
          ? (readStorage(storageKeys.userId) ?? undefined)
          : undefined,
    });
    if (isNetworkFailure(error)) return "network-failure";
    if (error || !data?.success) return "refused";
    $expirationDate.set(data.expirationDate ?? "");
    $subscriptionIsActive.set(String(data.subscriptionIsActive));
    return "signed-in";
  } catch {
    return "network-failure";
  }
}

/** Spec §4: success goes to the cabinet; a refusal goes home silently; a network failure home with a toast. */
export async function finishSignIn(identity: Credentialed, target = "/profile"): Promise<SignInOutcome> {
  const outcome = await registerCustomer(identity);
  if (outcome === "signed-in") {
    location.assign(target);
    return outcome;
  }
  if (outcome === "network-failure") queueToastForNextPage(translate("auth.failed"), "error");
  location.assign("/");
  return outcome;
}
