import { atom } from "nanostores";
import { type ApiData, api, errorMessage } from "../lib/api-client";
import { translate } from "../lib/i18n/runtime";
import { panelCall } from "./panel-session";

export type RefundAnswer = ApiData<typeof api.panel.refund.post>;

export type RefundPreview =
  | { state: "loading" }
  | { state: "ready"; answer: RefundAnswer }
  | { state: "failed"; message: string };
export type RefundResult = { answer: RefundAnswer } | { failure: string } | undefined;

/** What a refund would return now, shown before the hold-to-confirm button. */
export const $refundPreview = atom<RefundPreview>({ state: "loading" });
/** The last refund's answer (styled by Success) or why the request failed. */
export const $refundResult = atom<RefundResult>(undefined);

/**
 * The customer the page names, as the server answered for its URL's id: the uid picks the
 * account, the e-mail confirms it. Never the customer last chosen in this browser, which
 * another tab may have changed since this page opened.
 */
export type RefundCustomer = { email: string; uid?: string };

const bodyOf = ({ email, uid }: RefundCustomer) => ({ email, uid });

type Outcome = { data: RefundAnswer | null; error: { status: unknown; value: unknown } | null };

/** Spec §8: a request that fails shows 'an error occurred while executing the request' (or the server's reason). */
async function ask(call: () => Promise<Outcome>): Promise<{ answer: RefundAnswer } | { failure: string }> {
  try {
    const { data, error } = await call();
    if (data) return { answer: data };
    return { failure: errorMessage(error) ?? translate("panel.requestFailed") };
  } catch {
    return { failure: translate("panel.requestFailed") };
  }
}

export async function loadRefundPreview(customer: RefundCustomer): Promise<void> {
  const outcome = await ask(() =>
    panelCall((headers) => api.panel.refund.preview.post(bodyOf(customer), { headers })),
  );
  $refundPreview.set(
    "answer" in outcome
      ? { state: "ready", answer: outcome.answer }
      : { state: "failed", message: outcome.failure },
  );
}

/** The hold-to-confirm refund; the preview is asked again after, so it shows what is left. */
export async function makeRefund(customer: RefundCustomer): Promise<void> {
  $refundResult.set(undefined);
  $refundResult.set(
    await ask(() => panelCall((headers) => api.panel.refund.post(bodyOf(customer), { headers }))),
  );
  await loadRefundPreview(customer);
}
