import {
  type AuthenticationResponseJSON,
  browserSupportsWebAuthn,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  startAuthentication,
  startRegistration,
} from "@simplewebauthn/browser";

/**
 * The browser's half of a passkey (DESIGN §12 "Staff second factor"): the server's options in,
 * the authenticator's answer out. Imported only by the pages that use a passkey (the panel's
 * login and its Security screen), so no other page carries it.
 */
export type { AuthenticationResponseJSON, RegistrationResponseJSON };
export type RequestOptions = PublicKeyCredentialRequestOptionsJSON;
export type CreationOptions = PublicKeyCredentialCreationOptionsJSON;

/**
 * Why the browser gave no answer: the operator closed its prompt or the device did not accept
 * (the browser does not tell these apart: NotAllowedError), this device already holds a passkey
 * of this account (only when adding one), or anything else the browser refused for.
 */
export type PasskeyProblem = "cancelled" | "already-on-device" | "failed";
export type PasskeyOutcome<Response> = { response: Response } | { problem: PasskeyProblem };

/** Whether this browser can use a passkey at all: the passkey buttons are left out where not. */
export const canUsePasskeys = () => typeof window !== "undefined" && browserSupportsWebAuthn();

function problemOf(error: unknown): PasskeyProblem {
  const name = error instanceof Error ? error.name : "";
  if (name === "NotAllowedError" || name === "AbortError") return "cancelled";
  if (name === "InvalidStateError") return "already-on-device";
  return "failed";
}

/** Asks the device for a passkey of the server's options (a sign-in or a fresh check). */
export async function askForPasskey(
  options: RequestOptions,
): Promise<PasskeyOutcome<AuthenticationResponseJSON>> {
  try {
    return { response: await startAuthentication({ optionsJSON: options }) };
  } catch (error) {
    return { problem: problemOf(error) };
  }
}

/** Asks the device to make a passkey of the server's options. */
export async function createPasskey(
  options: CreationOptions,
): Promise<PasskeyOutcome<RegistrationResponseJSON>> {
  try {
    return { response: await startRegistration({ optionsJSON: options }) };
  } catch (error) {
    return { problem: problemOf(error) };
  }
}
