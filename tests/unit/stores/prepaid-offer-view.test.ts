import { describe, expect, test } from "vitest";
import type { PrepaidOffer } from "../../../src/stores/prepaid-binding";
import { prepaidOfferView } from "../../../src/stores/prepaid-offer-view";

const asking: PrepaidOffer = { email: "buyer@example.com", source: "sign-in", step: "asking" };

describe("what the purchase-binding dialog says", () => {
  test("while attaching can happen it asks, with what attaching adds", () => {
    expect(prepaidOfferView(asking)).toEqual({ kind: "question" });
    expect(
      prepaidOfferView({
        ...asking,
        preview: { outcome: "starts", months: 1, until: "2027-01-12T00:00:00Z" },
      }),
    ).toEqual({ kind: "question" });
    // No answer from the preview yet, or a connection that failed: the question still stands.
    expect(prepaidOfferView({ ...asking, step: "failed" })).toEqual({ kind: "question" });
  });

  test("a preview that says it would be refused shows only the refusal and its reason", () => {
    const reason = "The card this purchase was paid with had already had a trial.";
    expect(prepaidOfferView({ ...asking, preview: { outcome: "refused", reason } })).toEqual({
      kind: "refusal",
      reason,
      wasAttempted: false,
      canReturnPayment: false,
    });
    // A second trial goes back to the card when the customer confirms: that is the one action left.
    expect(
      prepaidOfferView({ ...asking, preview: { outcome: "refused", reason, isRefundOnConfirm: true } }),
    ).toEqual({ kind: "refusal", reason, wasAttempted: false, canReturnPayment: true });
  });

  test("a binding refused after the click says it was not attached, and why, with nothing more to confirm", () => {
    const offer: PrepaidOffer = {
      ...asking,
      step: "refused",
      reason: "This purchase is already attached to another account.",
      preview: { outcome: "refused", reason: "older words", isRefundOnConfirm: true },
    };
    expect(prepaidOfferView(offer)).toEqual({
      kind: "refusal",
      reason: "This purchase is already attached to another account.",
      wasAttempted: true,
      canReturnPayment: false,
    });
  });
});
