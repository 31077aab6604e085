import type { PrepaidOffer } from "./prepaid-binding";

/**
 * What the binding dialog says. While attaching can happen it asks "attach this purchase
 * to {e-mail}?"; once the server has said it cannot (before the click, in the preview, or
 * after it) the dialog says only that and why: asking to attach what cannot be attached,
 * above the refusal, read as two contradicting answers.
 */
export type PrepaidOfferView =
  | { kind: "question" }
  | {
      kind: "refusal";
      /** The server's reason, in the customer's words. */
      reason: string;
      /** Refused when the customer confirmed (else: the preview says it would be). */
      wasAttempted: boolean;
      /** Confirming sends the payment back to the card (a second trial, DESIGN §13). */
      canReturnPayment: boolean;
    };

export function prepaidOfferView(offer: PrepaidOffer): PrepaidOfferView {
  if (offer.step === "refused")
    return { kind: "refusal", reason: offer.reason ?? "", wasAttempted: true, canReturnPayment: false };
  if (offer.preview?.outcome === "refused")
    return {
      kind: "refusal",
      reason: offer.preview.reason ?? "",
      wasAttempted: false,
      canReturnPayment: offer.preview.isRefundOnConfirm === true,
    };
  return { kind: "question" };
}
