import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import en from "../../../core/i18n/en.json";
import { answer, networkFailure, openCustomerPage, refusal } from "../../helpers/customer-store-browser";
import { endpoints } from "../../helpers/store-api";

// The network is replaced: these tests are about where a finished sign-in goes (spec §4).
vi.mock("../../../src/lib/api-client", () => import("../../helpers/fake-api-client"));
const calls = endpoints({
  register: (api) => api.register.post,
  preview: (api) => api.shop.prepaidPreview.post,
});

const browser = openCustomerPage("https://kannt.example/yauth");
(await import("../../../src/lib/i18n/runtime")).$texts.set(en as never);
const toasts = await import("../../../src/lib/toast/toast-store");
const prepaid = await import("../../../src/stores/prepaid-binding");
const { startGoogleAttempt } = await import("../../../src/stores/google-sign-in");
const store = await import("../../../src/stores/sign-in-flow");

const yandex = {
  uid: "ya-1",
  email: "someone@yandex.ru",
  photoURL: "",
  providerId: "yandex",
  credential: "yandex-token",
};
const signedIn = () => answer({ success: true, expirationDate: null, subscriptionIsActive: false });
/** The toast the next page will show, if one was queued. */
function nextPageToast() {
  toasts.$toasts.set([]);
  toasts.showQueuedToast();
  return toasts.$toasts.get().at(-1);
}
const idToken = (payload: Record<string, unknown>) =>
  `header.${btoa(JSON.stringify(payload)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")}.signature`;

beforeEach(() => {
  browser.localStorage.clear();
  browser.sessionStorage.clear();
});
afterEach(() => vi.clearAllMocks());

describe("where sign-in returns", () => {
  test("the page /login was opened for is kept for this tab; without one, or a foreign one, the cabinet", () => {
    expect(store.returnPath()).toBe("/profile");
    store.rememberReturnPath("/promo?tab=friends");
    expect(store.returnPath()).toBe("/promo?tab=friends");
    store.rememberReturnPath("//evil.example/steal");
    expect(store.returnPath()).toBe("/profile");
    store.rememberReturnPath(null);
    expect(store.returnPath()).toBe("/profile");
  });
});

describe("finishing a sign-in", () => {
  test("success goes to the page the sign-in was for", async () => {
    store.rememberReturnPath("/promo");
    calls.register.mockReturnValueOnce(signedIn());
    expect(await store.finishSignIn(yandex)).toBe("signed-in");
    expect(browser.location.assign).toHaveBeenCalledWith("/promo");
    expect(nextPageToast()).toBeUndefined();
  });

  test("success waits for the answer about a purchase paid here before going on", async () => {
    browser.localStorage.setItem("payment", "completed");
    browser.localStorage.setItem("userID", "prepaid-token");
    calls.register.mockReturnValueOnce(signedIn());
    calls.preview.mockReturnValueOnce(networkFailure());
    const finishing = store.finishSignIn(yandex, "/profile");
    await vi.waitFor(() => expect(prepaid.$prepaidOffer.get()).toMatchObject({ step: "asking" }));
    expect(browser.location.assign).not.toHaveBeenCalled();
    prepaid.declinePendingPurchase();
    await finishing;
    expect(browser.location.assign).toHaveBeenCalledWith("/profile");
  });

  test("a refusal goes home silently", async () => {
    calls.register.mockReturnValueOnce(refusal(401, "credential_invalid", "The sign-in was not accepted."));
    expect(await store.finishSignIn(yandex, "/profile")).toBe("refused");
    expect(browser.location.assign).toHaveBeenCalledWith("/");
    expect(nextPageToast()).toBeUndefined();
  });

  test("a network failure goes home, where a toast says the sign-in failed", async () => {
    calls.register.mockReturnValueOnce(networkFailure());
    expect(await store.finishSignIn(yandex, "/profile")).toBe("network-failure");
    expect(browser.location.assign).toHaveBeenCalledWith("/");
    expect(nextPageToast()).toMatchObject({ type: "error", content: en["auth.failed"] });
  });
});

describe("finishing a Google sign-in", () => {
  test("a credential of this tab's attempt signs in and goes to the target", async () => {
    const nonce = startGoogleAttempt();
    calls.register.mockReturnValueOnce(signedIn());
    const credential = idToken({ sub: "google-uid", email: "someone@example.com", nonce });
    expect(await store.finishGoogleSignIn(credential, "/promo")).toBe("signed-in");
    expect(calls.register).toHaveBeenCalledWith(
      expect.objectContaining({ credential, nonce, uid: "google-uid" }),
    );
    expect(browser.location.assign).toHaveBeenCalledWith("/promo");
  });

  test("a credential this tab did not ask for, or cannot read, is not used: nothing is sent, nothing opens", async () => {
    startGoogleAttempt();
    expect(
      await store.finishGoogleSignIn(idToken({ sub: "u", email: "e@example.com", nonce: "x" }), "/promo"),
    ).toBe("not-this-attempt");
    const nonce = startGoogleAttempt();
    expect(await store.finishGoogleSignIn(idToken({ nonce }), "/promo")).toBe("unreadable");
    expect(calls.register).not.toHaveBeenCalled();
    expect(browser.location.assign).not.toHaveBeenCalled();
  });
});
