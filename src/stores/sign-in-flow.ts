import { translate } from "../lib/i18n/runtime";
import { safeNextPath } from "../lib/login-query";
import { queueToastForNextPage } from "../lib/toast/toast-store";
import { type Credentialed, registerCustomer, type SignInOutcome } from "./auth";
import { acceptGoogleCredential } from "./google-sign-in";
import { askToAttachPendingPurchase } from "./prepaid-binding";

const returnKey = "kannt.signInReturn";

/**
 * The page to open after sign-in, kept for this tab: a Yandex sign-in leaves the site
 * and comes back through /yauth, which has no `next` of its own.
 */
export function rememberReturnPath(next: string | null): void {
  try {
    sessionStorage.setItem(returnKey, safeNextPath(next));
  } catch {
    // Without session storage the cabinet is the target.
  }
}

export function returnPath(): string {
  try {
    return safeNextPath(sessionStorage.getItem(returnKey));
  } catch {
    return "/profile";
  }
}

/**
 * Spec §4: success goes to the target (after the question about a waiting prepaid
 * purchase, if any); a refusal goes home silently; a network failure home with a toast.
 */
export async function finishSignIn(identity: Credentialed, target = returnPath()): Promise<SignInOutcome> {
  const outcome = await registerCustomer(identity);
  if (outcome === "signed-in") {
    await askToAttachPendingPurchase(identity);
    location.assign(target);
    return outcome;
  }
  if (outcome === "network-failure") queueToastForNextPage(translate("auth.failed"), "error");
  location.assign("/");
  return outcome;
}

/** A Google ID token from the popup: used only when it answers this tab's attempt (its nonce). */
export async function finishGoogleSignIn(
  credential: string,
  target: string,
): Promise<SignInOutcome | "not-this-attempt" | "unreadable"> {
  const answer = acceptGoogleCredential(credential);
  if ("problem" in answer) {
    console.warn(`Google sign-in not used: ${answer.problem}`);
    return answer.problem;
  }
  return finishSignIn(answer.identity, target);
}
