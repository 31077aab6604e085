import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import en from "../../../core/i18n/en.json";
import { answer, networkFailure, openCustomerPage, refusal } from "../../helpers/customer-store-browser";
import { endpoints, pending } from "../../helpers/store-api";

// The network is replaced: these tests are about the question asked while a paid anonymous
// purchase waits in this browser, and what each answer to it leaves.
vi.mock("../../../src/lib/api-client", () => import("../../helpers/fake-api-client"));
const calls = endpoints({
  preview: (api) => api.shop.prepaidPreview.post,
  attach: (api) => api.shop.attachPrepaid.post,
  register: (api) => api.register.post,
});

const browser = openCustomerPage("https://kannt.example/login");

let store: typeof import("../../../src/stores/prepaid-binding");
let toasts: typeof import("../../../src/lib/toast/toast-store");
beforeEach(async () => {
  // Each test is a new page: no question waiting.
  vi.resetModules();
  browser.localStorage.clear();
  browser.sessionStorage.clear();
  store = await import("../../../src/stores/prepaid-binding");
  toasts = await import("../../../src/lib/toast/toast-store");
  (await import("../../../src/lib/i18n/runtime")).$texts.set(en as never);
  browser.localStorage.setItem("payment", "completed");
  browser.localStorage.setItem("userID", "prepaid-token");
});
afterEach(() => vi.clearAllMocks());

const identity = {
  uid: "google-uid",
  email: "someone@example.com",
  photoURL: "",
  providerId: "google.com",
  credential: "id.token.signed",
};
const account = { email: "someone@example.com", uid: "google-uid" };
const extends30 = { outcome: "extends", days: 30, until: "2027-01-21T12:00:00.000Z" };
const registered = (prepaid: Record<string, unknown>) =>
  answer({ success: true, expirationDate: null, subscriptionIsActive: true, prepaid });
const isPurchaseKept = () =>
  browser.localStorage.getItem("payment") === "completed" && browser.localStorage.getItem("userID") !== null;
const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Asks after a sign-in; reports whether the question was answered yet. */
function askAfterSignIn() {
  const state = { isAnswered: false };
  void store.askToAttachPendingPurchase(identity).then(() => (state.isAnswered = true));
  return state;
}

describe("a paid purchase waiting in this browser", () => {
  test("only a completed payment with its id waits", () => {
    expect(store.pendingPrepaidToken()).toBe("prepaid-token");
    browser.localStorage.removeItem("payment");
    expect(store.pendingPrepaidToken()).toBeUndefined();
  });

  test("with nothing waiting the sign-in goes on without a question", async () => {
    browser.localStorage.clear();
    await store.askToAttachPendingPurchase(identity);
    expect(store.$prepaidOffer.get()).toBeUndefined();
    expect(calls.preview).not.toHaveBeenCalled();
  });

  test("after a sign-in the question names the account and what attaching would add", async () => {
    calls.preview.mockReturnValueOnce(answer(extends30));
    const asked = askAfterSignIn();
    expect(store.$prepaidOffer.get()).toEqual({ email: account.email, source: "sign-in", step: "asking" });
    await settled();
    // Only who is asking and which purchase: the sign-in's credential stays out of it.
    expect(calls.preview).toHaveBeenCalledWith({ ...account, prepaidToken: "prepaid-token" });
    expect(store.$prepaidOffer.get()).toEqual({
      email: account.email,
      source: "sign-in",
      step: "asking",
      preview: extends30,
    });
    // Nothing is attached, and the sign-in does not go on, without the customer's answer.
    expect(asked.isAnswered).toBe(false);
    expect(calls.register).not.toHaveBeenCalled();
  });

  test("a preview that failed leaves the question standing without it", async () => {
    calls.preview.mockRejectedValueOnce(new TypeError("Failed to fetch"));
    askAfterSignIn();
    await settled();
    expect(store.$prepaidOffer.get()).toEqual({ email: account.email, source: "sign-in", step: "asking" });
  });

  test("confirmed after a sign-in: attached with the sign-in, forgotten here, said on the next page", async () => {
    calls.preview.mockReturnValueOnce(answer(extends30));
    const asked = askAfterSignIn();
    await settled();
    calls.register.mockReturnValueOnce(registered({ bound: true }));
    const attaching = store.attachPendingPurchase();
    expect(store.$prepaidOffer.get()).toMatchObject({ step: "attaching", preview: extends30 });
    await attaching;
    expect(calls.register).toHaveBeenCalledWith(expect.objectContaining({ prepaidToken: "prepaid-token" }));
    expect(store.$prepaidOffer.get()).toBeUndefined();
    expect(isPurchaseKept()).toBe(false);
    await settled();
    expect(asked.isAnswered).toBe(true);
    toasts.showQueuedToast();
    expect(toasts.$toasts.get().at(-1)).toMatchObject({
      type: "success",
      content: "The purchase is attached to someone@example.com.",
    });
  });

  test("a refusal is explained where the customer looks, in the server's words; the purchase stays", async () => {
    calls.preview.mockReturnValueOnce(answer(extends30));
    const asked = askAfterSignIn();
    await settled();
    calls.register.mockReturnValueOnce(registered({ bound: false, reason: "Already attached elsewhere." }));
    await store.attachPendingPurchase();
    expect(store.$prepaidOffer.get()).toEqual({
      email: account.email,
      source: "sign-in",
      step: "refused",
      reason: "Already attached elsewhere.",
    });
    expect(isPurchaseKept()).toBe(true);
    expect(asked.isAnswered).toBe(false);
    // "Not now" after the refusal: the flow goes on, the purchase still waits.
    store.declinePendingPurchase();
    await settled();
    expect(asked.isAnswered).toBe(true);
    expect(isPurchaseKept()).toBe(true);
  });

  test("a refusal without words still says the server refused", async () => {
    askAfterSignIn();
    calls.register.mockReturnValueOnce(refusal(400));
    await store.attachPendingPurchase();
    expect(store.$prepaidOffer.get()).toMatchObject({
      step: "refused",
      reason: en["prepaid.refusedUnknown"],
    });
  });

  test("a refused purchase the server said it would refund is not offered again", async () => {
    calls.preview.mockReturnValueOnce(
      answer({ outcome: "refused", reason: "Had a trial.", isRefundOnConfirm: true }),
    );
    askAfterSignIn();
    await settled();
    calls.register.mockReturnValueOnce(registered({ bound: false, reason: "Had a trial; refunded." }));
    await store.attachPendingPurchase();
    expect(store.$prepaidOffer.get()).toMatchObject({ step: "refused", reason: "Had a trial; refunded." });
    expect(isPurchaseKept()).toBe(false);
  });

  test("a network failure says so and keeps the purchase for another try", async () => {
    askAfterSignIn();
    calls.register.mockReturnValueOnce(networkFailure());
    await store.attachPendingPurchase();
    expect(store.$prepaidOffer.get()).toEqual({ email: account.email, source: "sign-in", step: "failed" });
    expect(isPurchaseKept()).toBe(true);
  });

  test("from the cabinet the session attaches it, and this page says so", async () => {
    const answered = vi.fn();
    calls.preview.mockReturnValueOnce(answer(extends30));
    store.askToAttachFromCabinet(account, answered);
    expect(store.$prepaidOffer.get()).toMatchObject({ source: "cabinet", step: "asking" });
    await settled();
    calls.attach.mockReturnValueOnce(
      answer({ bound: true, expirationDate: "2027-01-21T12:00:00.000Z", subscriptionIsActive: true }),
    );
    await store.attachPendingPurchase();
    expect(calls.attach).toHaveBeenCalledWith({ ...account, prepaidToken: "prepaid-token" });
    expect(calls.register).not.toHaveBeenCalled();
    expect(toasts.$toasts.get().at(-1)).toMatchObject({
      type: "success",
      content: "The purchase is attached to someone@example.com.",
    });
    expect(answered).toHaveBeenCalledOnce();
    expect(isPurchaseKept()).toBe(false);
  });

  test("from the cabinet a refusal keeps the server's reason, and a failed call says so", async () => {
    store.askToAttachFromCabinet(account, vi.fn());
    calls.attach.mockReturnValueOnce(
      answer({
        bound: false,
        reason: "Already attached elsewhere.",
        expirationDate: null,
        subscriptionIsActive: false,
      }),
    );
    await store.attachPendingPurchase();
    expect(store.$prepaidOffer.get()).toMatchObject({
      step: "refused",
      reason: "Already attached elsewhere.",
    });
    calls.attach.mockRejectedValueOnce(new TypeError("Failed to fetch"));
    await store.attachPendingPurchase();
    expect(store.$prepaidOffer.get()).toMatchObject({ source: "cabinet", step: "failed" });
    expect(isPurchaseKept()).toBe(true);
  });

  test("a preview arriving after the answer does not bring the question back", async () => {
    const { promise: later, finish } = pending();
    calls.preview.mockReturnValueOnce(later);
    askAfterSignIn();
    store.declinePendingPurchase();
    finish({ data: extends30, error: null });
    await settled();
    expect(store.$prepaidOffer.get()).toBeUndefined();
  });
});
