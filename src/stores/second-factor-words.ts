import { errorMessage, failureCause } from "../lib/api-client";
import { type TranslationKey, translate } from "../lib/i18n/runtime";
import type { PasskeyProblem } from "../lib/passkeys";

/**
 * What the second factor's screens say when something did not happen: the server's own words
 * (in the operator's language) when it answered, the screen's words when it did not.
 */
export function failureText(
  error: { status?: unknown; value?: unknown } | null,
  otherwise: TranslationKey = "panel.requestFailed",
): string {
  if (failureCause(error) === "network") return translate("panel.connectionFailed");
  return errorMessage(error) ?? translate(otherwise);
}

/**
 * Why the browser gave no passkey, in the operator's words: the server never saw the attempt,
 * so there is no message of its own to show.
 */
export function passkeyProblemText(problem: PasskeyProblem): string {
  switch (problem) {
    case "cancelled":
      return translate("panel.passkeyCancelled");
    case "already-on-device":
      return translate("panel.passkeyAlreadyOnDevice");
    default:
      return translate("panel.passkeyFailed");
  }
}
