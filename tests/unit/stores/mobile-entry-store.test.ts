import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { answer, networkFailure, openCustomerPage, refusal } from "../../helpers/customer-store-browser";
import { endpoints } from "../../helpers/store-api";

// The network is replaced: these tests are about what /mobileShop and /mobileProfile do with
// the account the native app opens them with.
vi.mock("../../../src/lib/api-client", () => import("../../helpers/fake-api-client"));
const calls = endpoints({
  register: (api) => api.register.post,
  settings: (api) => api.payments.settings.get,
  preview: (api) => api.shop.prepaidPreview.post,
  shop: (api) => api.shop.getShop.post,
  profile: (api) => api.profile.post,
});

const page =
  "https://kannt.example/mobileShop?email=app@example.com&uid=app-uid&photoURL=https%3A%2F%2Fp%2Fme.png&providerId=google.com#credential=app.id.token";
const browser = openCustomerPage(page);

let store: typeof import("../../../src/stores/mobile-entry");
let customer: typeof import("../../../src/stores/customer");
let cabinet: typeof import("../../../src/stores/cabinet");
let prepaid: typeof import("../../../src/stores/prepaid-binding");
beforeEach(async () => {
  // Each test is a new page.
  vi.resetModules();
  browser.localStorage.clear();
  browser.location.search = new URL(page).search;
  browser.location.hash = new URL(page).hash;
  browser.location.pathname = "/mobileShop";
  store = await import("../../../src/stores/mobile-entry");
  customer = await import("../../../src/stores/customer");
  cabinet = await import("../../../src/stores/cabinet");
  prepaid = await import("../../../src/stores/prepaid-binding");
  customer.$email.set("");
  customer.$uid.set("");
  calls.settings.mockReturnValue(networkFailure());
});
afterEach(() => vi.clearAllMocks());

const arriving = {
  email: "app@example.com",
  uid: "app-uid",
  photoURL: "https://p/me.png",
  providerId: "google.com",
};
const signedIn = () => answer({ success: true, expirationDate: null, subscriptionIsActive: false });

describe("entering from the native app", () => {
  test("the identity comes in the query and the provider token in the fragment", () => {
    expect(store.readMobileArrival()).toEqual({ identity: arriving, credential: "app.id.token" });
    browser.location.search = "";
    browser.location.hash = "";
    expect(store.readMobileArrival()).toEqual({
      identity: { email: "", uid: "", photoURL: "", providerId: "" },
      credential: null,
    });
  });

  test("a token signs the arriving account in, and leaves the address without it", async () => {
    calls.register.mockReturnValueOnce(signedIn());
    expect(await store.enterFromApp("profile", store.readMobileArrival())).toBe(true);
    expect(calls.register).toHaveBeenCalledWith(
      expect.objectContaining({ email: "app@example.com", uid: "app-uid", credential: "app.id.token" }),
    );
    expect(customer.$email.get()).toBe("app@example.com");
    expect(customer.$uid.get()).toBe("app-uid");
    expect(browser.history.replaceState).toHaveBeenCalledWith(null, "", `/mobileShop${new URL(page).search}`);
    expect(cabinet.$needsSignIn.get()).toBe(false);
  });

  test("/mobileShop loads the payment widget up front; /mobileProfile does not", async () => {
    await store.enterFromApp("profile", { identity: arriving, credential: null });
    expect(calls.settings).not.toHaveBeenCalled();
    await store.enterFromApp("shop", { identity: arriving, credential: null });
    expect(calls.settings).toHaveBeenCalledOnce();
  });

  test("without a token the session already held is used, and an empty identity keeps the stored one", async () => {
    customer.$email.set("held@example.com");
    customer.$uid.set("held-uid");
    const empty = { email: "", uid: "", photoURL: "", providerId: "" };
    expect(await store.enterFromApp("profile", { identity: empty, credential: null })).toBe(true);
    expect(calls.register).not.toHaveBeenCalled();
    expect(customer.$email.get()).toBe("held@example.com");
  });

  test.each([
    ["refused", () => refusal(401, "credential_invalid", "The sign-in was not accepted.")],
    ["never answered", networkFailure],
  ])(
    "a token %s offers sign-in in place instead of leaving, and drops the token from the address",
    async (_case, result) => {
      calls.register.mockImplementationOnce(result);
      expect(await store.enterFromApp("profile", store.readMobileArrival())).toBe(false);
      expect(cabinet.$needsSignIn.get()).toBe(true);
      expect(browser.history.replaceState).toHaveBeenCalledWith(null, "", "/mobileShop");
      expect(browser.location.assign).not.toHaveBeenCalled();
    },
  );

  test("a session that ends later is signed in again in place too, coming back to this page", async () => {
    await store.enterFromApp("profile", { identity: arriving, credential: null });
    calls.profile.mockReturnValueOnce(refusal(401, "session_ended", "Sign in again."));
    calls.shop.mockReturnValueOnce(refusal(401, "session_ended", "Sign in again."));
    await cabinet.loadCabinet();
    expect(cabinet.$needsSignIn.get()).toBe(true);
    expect(browser.location.assign).not.toHaveBeenCalled();
    expect((await import("../../../src/stores/sign-in-flow")).returnPath()).toBe("/mobileShop");
  });

  test("a paid purchase waiting here is asked about before the cabinet loads", async () => {
    browser.localStorage.setItem("payment", "completed");
    browser.localStorage.setItem("userID", "prepaid-token");
    calls.register.mockReturnValueOnce(signedIn());
    calls.preview.mockReturnValueOnce(networkFailure());
    let isReady: boolean | undefined;
    const entering = store
      .enterFromApp("profile", store.readMobileArrival())
      .then((ready) => (isReady = ready));
    await vi.waitFor(() => expect(prepaid.$prepaidOffer.get()).toMatchObject({ step: "asking" }));
    expect(isReady).toBeUndefined();
    prepaid.declinePendingPurchase();
    await entering;
    expect(isReady).toBe(true);
  });
});
