import type { ErrorCode } from "../../bff/platform/errors";
import { api, errorCode, errorMessage, isNetworkFailure } from "../lib/api-client";
import {
  $expirationDate,
  $period,
  $promo,
  $subscriptionIsActive,
  $tariff,
  type ProviderIdentity,
  rememberIdentity,
} from "./customer";

/**
 * A page that needs a customer session, visited without one: sign in and come back
 * (/login returns to `next` after sign-in).
 */
export function goToSignIn(): void {
  location.assign(`/login?next=${encodeURIComponent(location.pathname + location.search)}`);
}

/** The refusals that signing in answers: no session, an ended one, or one of another account. */
const signInCodes: readonly ErrorCode[] = ["sign_in_required", "session_ended", "another_account"];

export const needsSignIn = (error: { value?: unknown } | null | undefined) => {
  const code = errorCode(error);
  return code !== undefined && signInCodes.includes(code);
};

export type SignInOutcome = "signed-in" | "refused" | "network-failure";
/** A provider identity with its credential and, for Google, the nonce its attempt started with. */
export type Credentialed = ProviderIdentity & { credential: string; nonce?: string };
export type RegisterResult = { outcome: SignInOutcome; message?: string };

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

/**
 * POST /api/register with the spec's body plus the provider credential (and nonce).
 * `prepaidToken` goes along only when the caller passes it: binding an anonymous
 * purchase needs the customer's confirmation on screen (stores/prepaid-binding.ts).
 */
export async function postRegister(identity: Credentialed, prepaidToken?: string): Promise<RegisterResult> {
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
      nonce: identity.nonce,
      prepaidToken,
    });
    if (isNetworkFailure(error)) return { outcome: "network-failure" };
    if (error || !data?.success) return { outcome: "refused", message: errorMessage(error) };
    // Signed in, but the purchase was not attached: say why (DESIGN §13, never a silent redirect).
    if (prepaidToken && data.prepaid?.bound !== true)
      return { outcome: "refused", message: data.prepaid?.reason };
    $expirationDate.set(data.expirationDate ?? "");
    $subscriptionIsActive.set(String(data.subscriptionIsActive));
    return { outcome: "signed-in" };
  } catch {
    return { outcome: "network-failure" };
  }
}

export async function registerCustomer(identity: Credentialed): Promise<SignInOutcome> {
  return (await postRegister(identity)).outcome;
}
