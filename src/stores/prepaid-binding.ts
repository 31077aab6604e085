import { atom } from "nanostores";
import { type ApiData, api, isNetworkFailure } from "../lib/api-client";
import { translate } from "../lib/i18n/runtime";
import { readStorage, removeStorage, storageKeys } from "../lib/storage-keys";
import { queueToastForNextPage, showToast } from "../lib/toast/toast-store";
import { type Credentialed, postRegister, type RegisterResult } from "./auth";

/** What attaching would do, as the server says before the click (DESIGN §13). */
export type PrepaidPreview = ApiData<typeof api.shop.prepaidPreview.post>;

/** The question on screen after a sign-in (or from the cabinet) while an anonymous paid purchase waits in this browser. */
export type PrepaidOffer = {
  email: string;
  /** Asked right after a sign-in, or from the cabinet later: each screen shows its own. */
  source: "sign-in" | "cabinet";
  step: "asking" | "attaching" | "refused" | "failed";
  /** Why the server refused to attach it, in its own words. */
  reason?: string;
  /** What attaching adds (or why it would be refused), once the server has said. */
  preview?: PrepaidPreview;
};

export const $prepaidOffer = atom<PrepaidOffer | undefined>();

type Account = { uid: string; email: string };
/**
 * Who is asked: right after a sign-in, with the provider's credential (the purchase goes
 * with /api/register, as DESIGN §13 has it); later, from the cabinet, with the session.
 */
type Waiting = { account: Account; identity?: Credentialed; answered: () => void };

let waiting: Waiting | undefined;

/** The payment id of a purchase paid on /instantPay before signing in, while it is not yet attached. */
export function pendingPrepaidToken(): string | undefined {
  if (readStorage(storageKeys.payment) !== "completed") return undefined;
  return readStorage(storageKeys.userId) || undefined;
}

/** The purchase is this account's now, or went back to the card: nothing waits any more. */
function forgetPurchase(): void {
  removeStorage(storageKeys.payment);
  removeStorage(storageKeys.userId);
}

function close(): void {
  const answered = waiting?.answered;
  waiting = undefined;
  $prepaidOffer.set(undefined);
  answered?.();
}

/** Asks the server what attaching would do, and puts it in the question still on screen. */
async function loadPreview(account: Account, prepaidToken: string): Promise<void> {
  try {
    // The account may be the whole sign-in identity: its provider credential has no business here.
    const { data } = await api.shop.prepaidPreview.post({
      email: account.email,
      uid: account.uid,
      prepaidToken,
    });
    const offer = $prepaidOffer.get();
    if (data && offer?.step === "asking" && offer.email === account.email)
      $prepaidOffer.set({ ...offer, preview: data });
  } catch (error) {
    // The question still stands; the server explains any refusal after the click.
    console.warn("prepaid preview unavailable", error);
  }
}

const sourceOf = (asked: Waiting) => (asked.identity ? "sign-in" : "cabinet");

function ask(next: Waiting): void {
  const prepaidToken = pendingPrepaidToken();
  if (!prepaidToken) {
    next.answered();
    return;
  }
  waiting = next;
  $prepaidOffer.set({ email: next.account.email, source: sourceOf(next), step: "asking" });
  void loadPreview(next.account, prepaidToken);
}

/**
 * After a sign-in: when a paid anonymous purchase waits, ask "attach it to {e-mail}?"
 * and resolve once the customer has answered; resolves at once when none waits.
 * Nothing is bound without that answer (DESIGN §13: no silent binding).
 */
export function askToAttachPendingPurchase(identity: Credentialed): Promise<void> {
  if (!pendingPrepaidToken()) return Promise.resolve();
  return new Promise((answered) => ask({ account: identity, identity, answered }));
}

/**
 * From the cabinet, after "Not now": the same question, answered with the session. The
 * cabinet reloads once it is answered (`answered`).
 */
export function askToAttachFromCabinet(account: Account, answered: () => void): void {
  ask({ account, answered });
}

async function attachWithSession(account: Account, prepaidToken: string): Promise<RegisterResult> {
  try {
    const { data, error } = await api.shop.attachPrepaid.post({ ...account, prepaidToken });
    if (isNetworkFailure(error)) return { outcome: "network-failure" };
    if (data?.bound) return { outcome: "signed-in" };
    return { outcome: "refused", message: data?.reason };
  } catch {
    return { outcome: "network-failure" };
  }
}

/** The customer confirmed: the server binds it (/api/register with `prepaidToken` after a sign-in). */
export async function attachPendingPurchase(): Promise<void> {
  const prepaidToken = pendingPrepaidToken();
  const offer = $prepaidOffer.get();
  if (!waiting || !prepaidToken) {
    close();
    return;
  }
  const { account, identity } = waiting;
  const { email } = account;
  const source = sourceOf(waiting);
  $prepaidOffer.set({
    email,
    source,
    step: "attaching",
    ...(offer?.preview ? { preview: offer.preview } : {}),
  });
  const result = identity
    ? await postRegister(identity, prepaidToken)
    : await attachWithSession(account, prepaidToken);
  if (result.outcome === "signed-in") {
    forgetPurchase();
    const message = translate("prepaid.attached", { email });
    // After a sign-in the next page says it; in the cabinet this page does.
    if (identity) queueToastForNextPage(message, "success");
    else showToast(message, "success");
    close();
    return;
  }
  // Confirming a purchase the server said it would refund sends the money back: nothing waits then.
  if (result.outcome === "refused" && offer?.preview?.isRefundOnConfirm) forgetPurchase();
  // A refusal is explained where the customer is looking, never a silent redirect.
  $prepaidOffer.set(
    result.outcome === "network-failure"
      ? { email, source, step: "failed" }
      : { email, source, step: "refused", reason: result.message ?? translate("prepaid.refusedUnknown") },
  );
}

/** Not now (or after a refusal): the purchase stays stored and unbound, and the flow goes on. */
export function declinePendingPurchase(): void {
  close();
}
