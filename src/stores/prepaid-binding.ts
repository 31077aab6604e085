import { atom } from "nanostores";
import { translate } from "../lib/i18n/runtime";
import { readStorage, removeStorage, storageKeys } from "../lib/storage-keys";
import { queueToastForNextPage } from "../lib/toast/toast-store";
import { type Credentialed, postRegister } from "./auth";

/** The question on screen after a sign-in while an anonymous paid purchase waits in this browser. */
export type PrepaidOffer = {
  email: string;
  step: "asking" | "attaching" | "refused" | "failed";
  /** Why the server refused to attach it, in its own words. */
  reason?: string;
};

export const $prepaidOffer = atom<PrepaidOffer | undefined>();

let waiting: { identity: Credentialed; answered: () => void } | undefined;

/** The payment id of a purchase paid on /instantPay before signing in, while it is not yet attached. */
export function pendingPrepaidToken(): string | undefined {
  if (readStorage(storageKeys.payment) !== "completed") return undefined;
  return readStorage(storageKeys.userId) || undefined;
}

function close(): void {
  const answered = waiting?.answered;
  waiting = undefined;
  $prepaidOffer.set(undefined);
  answered?.();
}

/**
 * After a sign-in: when a paid anonymous purchase waits, ask "attach it to {e-mail}?"
 * and resolve once the customer has answered; resolves at once when none waits.
 * Nothing is bound without that answer (DESIGN §13: no silent binding).
 */
export function askToAttachPendingPurchase(identity: Credentialed): Promise<void> {
  if (!pendingPrepaidToken()) return Promise.resolve();
  return new Promise((answered) => {
    waiting = { identity, answered };
    $prepaidOffer.set({ email: identity.email, step: "asking" });
  });
}

/** The customer confirmed: /api/register again, now with `prepaidToken`; the server binds it. */
export async function attachPendingPurchase(): Promise<void> {
  const prepaidToken = pendingPrepaidToken();
  if (!waiting || !prepaidToken) {
    close();
    return;
  }
  const { email } = waiting.identity;
  $prepaidOffer.set({ email, step: "attaching" });
  const result = await postRegister(waiting.identity, prepaidToken);
  if (result.outcome === "signed-in") {
    removeStorage(storageKeys.payment);
    removeStorage(storageKeys.userId);
    queueToastForNextPage(translate("prepaid.attached", { email }), "success");
    close();
    return;
  }
  // A refusal is explained where the customer is looking, never a silent redirect.
  $prepaidOffer.set(
    result.outcome === "network-failure"
      ? { email, step: "failed" }
      : { email, step: "refused", reason: result.message ?? translate("prepaid.refusedUnknown") },
  );
}

/** Not now (or after a refusal): the purchase stays stored and unbound, and the sign-in goes on. */
export function declinePendingPurchase(): void {
  close();
}
