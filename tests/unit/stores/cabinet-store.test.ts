import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import en from "../../../core/i18n/en.json";
import { answer, networkFailure, openCustomerPage, refusal } from "../../helpers/customer-store-browser";
import { endpoints, pending } from "../../helpers/store-api";

// The network is replaced: these tests are about what the cabinet shows after each answer.
vi.mock("../../../src/lib/api-client", () => import("../../helpers/fake-api-client"));
const calls = endpoints({
  profile: (api) => api.profile.post,
  shop: (api) => api.shop.getShop.post,
  detach: (api) => api.profile.detachDevice.post,
  resume: (api) => api.subscriptions.resume.post,
  removeCard: (api) => api.profile.removeCard.post,
  addDevice: (api) => api.profile.addDevice.post,
  applyPromo: (api) => api.shop.applyPromo.post,
});

const browser = openCustomerPage("https://kannt.example/profile");
const { $texts } = await import("../../../src/lib/i18n/runtime");
const { $toasts } = await import("../../../src/lib/toast/toast-store");
const { $email, $uid } = await import("../../../src/stores/customer");
const store = await import("../../../src/stores/cabinet");

const device = (deviceId: string) => ({ deviceId, name: deviceId, platform: "android" });
const profile = (userInfo: Record<string, unknown> = {}) => ({
  success: true,
  userInfo: {
    expirationDate: "2026-12-21T12:00:00.000Z",
    subscriptionIsActive: true,
    subscriptionStatus: "ACTIVE",
    nextTransactionDate: "2026-12-21T12:00:00.000Z",
    amount: 299,
    endedAt: null,
    ...userInfo,
  },
  devices: [device("dev-1"), device("dev-2")],
  availableDevices: 1,
});
const shop = (monthlyPayment = 299) => ({ currency: "RUB", monthlyPayment, plans: [] });
type Profile = NonNullable<ReturnType<typeof store.$profile.get>>;
type Shop = NonNullable<ReturnType<typeof store.$shop.get>>;
const identity = { email: "someone@example.com", uid: "uid-1" };
const lastToast = () => $toasts.get().at(-1);

/** The cabinet as a successful load leaves it. */
function showCabinet(shown = profile()): void {
  store.$profile.set(shown as unknown as Profile);
  store.$shop.set(shop() as unknown as Shop);
  store.$cabinetState.set("ready");
}

beforeEach(() => {
  browser.localStorage.clear();
  browser.sessionStorage.clear();
  $texts.set(en as never);
  $email.set(identity.email);
  $uid.set(identity.uid);
  $toasts.set([]);
  store.$profile.set(undefined);
  store.$shop.set(undefined);
  store.$cabinetState.set("loading");
});
afterEach(() => {
  vi.clearAllMocks();
  vi.useRealTimers();
});

describe("loading the cabinet", () => {
  test("profile and shop data are asked for together and shown; the status is kept for the other pages", async () => {
    calls.profile.mockReturnValueOnce(answer(profile()));
    calls.shop.mockReturnValueOnce(answer(shop()));
    const loading = store.loadCabinet();
    expect(store.$cabinetState.get()).toBe("loading");
    await loading;
    expect(calls.profile).toHaveBeenCalledWith(identity);
    expect(calls.shop).toHaveBeenCalledWith(identity);
    expect(store.$cabinetState.get()).toBe("ready");
    expect(store.$profile.get()).toEqual(profile());
    expect(store.$shop.get()).toEqual(shop());
    expect(browser.localStorage.getItem("subscriptionStatus")).toBe("ACTIVE");
    expect(browser.localStorage.getItem("subscriptionIsActive")).toBe("true");
    expect(browser.localStorage.getItem("expirationDate")).toBe("2026-12-21T12:00:00.000Z");
  });

  test("a reload after an action keeps the blocks on screen until the new answer is in", async () => {
    showCabinet();
    const { promise: later, finish } = pending();
    calls.profile.mockReturnValueOnce(later);
    calls.shop.mockReturnValueOnce(answer(shop(199)));
    const loading = store.loadCabinet();
    expect(store.$cabinetState.get()).toBe("ready");
    expect(store.$profile.get()).toEqual(profile());
    finish({ data: profile({ subscriptionStatus: "CANCELED" }), error: null });
    await loading;
    expect(store.$profile.get()?.userInfo.subscriptionStatus).toBe("CANCELED");
    expect(store.$shop.get()?.monthlyPayment).toBe(199);
  });

  test("without a stored e-mail the customer signs in and comes back, and nothing is asked", async () => {
    $email.set("");
    await store.loadCabinet();
    expect(browser.location.assign).toHaveBeenCalledWith("/login?next=%2Fprofile");
    expect(calls.profile).not.toHaveBeenCalled();
  });

  test.each(["sign_in_required", "session_ended", "another_account"])(
    "the server's %s (on either call) sends the customer to sign in",
    async (code) => {
      calls.profile.mockReturnValueOnce(answer(profile()));
      calls.shop.mockReturnValueOnce(refusal(401, code, "Sign in again."));
      await store.loadCabinet();
      expect(browser.location.assign).toHaveBeenCalledWith("/login?next=%2Fprofile");
      expect(store.$cabinetState.get()).toBe("loading");
      expect(store.$profile.get()).toBeUndefined();
    },
  );

  test("any other refusal shows the retry and keeps what was known: no status is guessed", async () => {
    showCabinet();
    browser.localStorage.setItem("subscriptionStatus", "ACTIVE");
    // A 401 without the session's code is no reason to sign in.
    calls.profile.mockReturnValueOnce(refusal(401, "sign_in_expired", "The sign-in has expired."));
    calls.shop.mockReturnValueOnce(answer(shop(199)));
    await store.loadCabinet();
    expect(store.$cabinetState.get()).toBe("failed");
    expect(browser.location.assign).not.toHaveBeenCalled();
    expect(store.$profile.get()).toEqual(profile());
    expect(store.$shop.get()).toEqual(shop());
    expect(browser.localStorage.getItem("subscriptionStatus")).toBe("ACTIVE");
  });

  test("a network failure, a thrown call or a 500 shows the retry, which loads again", async () => {
    calls.profile.mockReturnValueOnce(networkFailure());
    calls.shop.mockReturnValueOnce(answer(shop()));
    await store.loadCabinet();
    expect(store.$cabinetState.get()).toBe("failed");
    calls.profile.mockReturnValueOnce(answer(profile()));
    calls.shop.mockRejectedValueOnce(new TypeError("Failed to fetch"));
    await store.loadCabinet();
    expect(store.$cabinetState.get()).toBe("failed");
    calls.profile.mockReturnValueOnce(refusal(500));
    calls.shop.mockReturnValueOnce(answer(shop()));
    await store.loadCabinet();
    expect(store.$cabinetState.get()).toBe("failed");
    calls.profile.mockReturnValueOnce(answer(profile()));
    calls.shop.mockReturnValueOnce(answer(shop()));
    await store.loadCabinet();
    expect(store.$cabinetState.get()).toBe("ready");
  });

  test("a call that hangs counts as failed after 20 seconds, so the retry is offered", async () => {
    vi.useFakeTimers();
    calls.profile.mockReturnValueOnce(new Promise(() => undefined));
    calls.shop.mockReturnValueOnce(answer(shop()));
    const loading = store.loadCabinet();
    await vi.advanceTimersByTimeAsync(19_999);
    expect(store.$cabinetState.get()).toBe("loading");
    await vi.advanceTimersByTimeAsync(1);
    await loading;
    expect(store.$cabinetState.get()).toBe("failed");
  });
});

describe("the cabinet's actions", () => {
  test("a detached device leaves the list and frees its slot; the rest of the profile stays", async () => {
    showCabinet();
    calls.detach.mockReturnValueOnce(
      answer({ success: true, devices: [device("dev-2")], availableDevices: 2 }),
    );
    await store.detachDevice("dev-1");
    expect(calls.detach).toHaveBeenCalledWith({ ...identity, deviceId: "dev-1" });
    expect(store.$profile.get()).toEqual({ ...profile(), devices: [device("dev-2")], availableDevices: 2 });
  });

  test("a refused or failed detach says so and keeps the list as it was", async () => {
    showCabinet();
    calls.detach.mockReturnValueOnce(refusal(404, "device_not_attached", "Already detached."));
    await store.detachDevice("dev-1");
    expect(lastToast()).toMatchObject({ type: "error", content: en["cabinet.detachFailed"] });
    calls.detach.mockRejectedValueOnce(new TypeError("Failed to fetch"));
    await store.detachDevice("dev-1");
    expect(lastToast()).toMatchObject({ type: "error", content: en["cabinet.detachFailed"] });
    expect(store.$profile.get()).toEqual(profile());
  });

  test("a resumed subscription reloads the cabinet and names the next charge", async () => {
    showCabinet(profile({ subscriptionStatus: "CANCELED", nextTransactionDate: null }));
    calls.resume.mockReturnValueOnce(answer({ success: true }));
    calls.profile.mockReturnValueOnce(answer(profile()));
    calls.shop.mockReturnValueOnce(answer(shop()));
    await store.resumeSubscription();
    expect(calls.resume).toHaveBeenCalledWith(identity);
    expect(store.$profile.get()?.userInfo.subscriptionStatus).toBe("ACTIVE");
    expect(lastToast()).toMatchObject({
      type: "success",
      content: "Subscription resumed. Access continues, and 299\u00a0₽ will be charged on December 21, 2026.",
    });
  });

  test("a resume without a next charge date still confirms it", async () => {
    calls.resume.mockReturnValueOnce(answer({ success: true }));
    calls.profile.mockReturnValueOnce(answer(profile({ nextTransactionDate: null })));
    calls.shop.mockReturnValueOnce(answer(shop()));
    await store.resumeSubscription();
    expect(lastToast()).toMatchObject({ type: "success", content: en["cabinet.resumed"] });
  });

  test("a refused resume shows the server's reason; a failed one says to try again; nothing reloads", async () => {
    showCabinet(profile({ subscriptionStatus: "CANCELED" }));
    calls.resume.mockReturnValueOnce(refusal(409, "no_saved_card", "Add a card to resume."));
    await store.resumeSubscription();
    expect(lastToast()).toMatchObject({ type: "error", content: "Add a card to resume." });
    calls.resume.mockReturnValueOnce(networkFailure());
    await store.resumeSubscription();
    expect(lastToast()).toMatchObject({ type: "error", content: en["cabinet.resumeFailed"] });
    expect(calls.profile).not.toHaveBeenCalled();
    expect(store.$profile.get()?.userInfo.subscriptionStatus).toBe("CANCELED");
  });

  test("a removed card says access stays until the end of the period, and the cabinet is read again", async () => {
    showCabinet();
    calls.removeCard.mockReturnValueOnce(answer({ success: true }));
    calls.profile.mockReturnValueOnce(answer(profile({ nextTransactionDate: null })));
    calls.shop.mockReturnValueOnce(answer(shop()));
    await store.removeCard();
    expect(calls.removeCard).toHaveBeenCalledWith(identity);
    expect(lastToast()).toMatchObject({
      type: "success",
      content:
        "Card removed. Auto-renewal is off and nothing more will be charged. Access stays open until December 21, 2026.",
    });
    expect(store.$profile.get()?.userInfo.nextTransactionDate).toBeNull();
  });

  test("a removed card without running access only says the card is gone", async () => {
    showCabinet(profile({ subscriptionIsActive: false, subscriptionStatus: "EXPIRED" }));
    calls.removeCard.mockReturnValueOnce(answer({ success: true }));
    calls.profile.mockReturnValueOnce(answer(profile({ subscriptionIsActive: false })));
    calls.shop.mockReturnValueOnce(answer(shop()));
    await store.removeCard();
    expect(lastToast()).toMatchObject({ type: "success", content: en["cabinet.cardRemovedToast"] });
  });

  test("a refused or failed card removal says why, and the cabinet still shows the server's state", async () => {
    showCabinet();
    calls.removeCard.mockReturnValueOnce(refusal(409, "payment_pending", "A payment is being processed."));
    for (let reads = 0; reads < 2; reads++) {
      calls.profile.mockReturnValueOnce(answer(profile()));
      calls.shop.mockReturnValueOnce(answer(shop()));
    }
    await store.removeCard();
    expect(lastToast()).toMatchObject({ type: "error", content: "A payment is being processed." });
    calls.removeCard.mockRejectedValueOnce(new TypeError("Failed to fetch"));
    await store.removeCard();
    expect(lastToast()).toMatchObject({ type: "error", content: en["cabinet.cardRemoveFailed"] });
    expect(calls.profile).toHaveBeenCalledTimes(2);
    expect(store.$cabinetState.get()).toBe("ready");
  });

  test("an applied promo code shows the new prices; a refusal answers the server's words and keeps the old ones", async () => {
    showCabinet();
    calls.applyPromo.mockReturnValueOnce(refusal(400, "promo_not_found", "No such promo code."));
    expect(await store.applyPromo("NOPE")).toBe("No such promo code.");
    expect(store.$shop.get()).toEqual(shop());
    calls.applyPromo.mockReturnValueOnce(refusal(400));
    expect(await store.applyPromo("NOPE")).toBe(en["purchase.promoFailed"]);
    calls.applyPromo.mockReturnValueOnce(answer(shop(249)));
    expect(await store.applyPromo("SPRING")).toBeUndefined();
    expect(calls.applyPromo).toHaveBeenLastCalledWith({ ...identity, promoCode: "SPRING" });
    expect(store.$shop.get()).toEqual(shop(249));
    expect(lastToast()).toMatchObject({ type: "success", content: en["purchase.promoApplied"] });
  });

  test("a promo code that never reached the server blames the connection, not the code", async () => {
    showCabinet();
    calls.applyPromo.mockReturnValueOnce(networkFailure());
    expect(await store.applyPromo("SPRING")).toBe(en["purchase.promoNetwork"]);
    calls.applyPromo.mockRejectedValueOnce(new TypeError("Failed to fetch"));
    expect(await store.applyPromo("SPRING")).toBe(en["purchase.promoNetwork"]);
    expect(store.$shop.get()).toEqual(shop());
  });

  test("a bought device slot names the amount charged and reloads the cabinet", async () => {
    showCabinet();
    calls.addDevice.mockReturnValueOnce(answer({ success: true, charged: 150 }));
    calls.profile.mockReturnValueOnce(answer({ ...profile(), availableDevices: 2 }));
    calls.shop.mockReturnValueOnce(answer(shop()));
    await store.addDevice();
    expect(calls.addDevice).toHaveBeenCalledWith(identity);
    expect(lastToast()).toMatchObject({
      type: "success",
      content: "One more device slot is yours; 150\u00a0₽ was charged.",
    });
    expect(store.$profile.get()?.availableDevices).toBe(2);
  });

  test("a slot is bought for exactly the amount the screen states, and a figure that no longer holds is shown anew", async () => {
    showCabinet();
    const charge = { amount: 48, until: "2027-03-01T00:00:00.000Z", perMonth: 50 };
    store.$shop.set({ ...shop(), deviceCharge: charge } as unknown as Shop);
    calls.addDevice.mockReturnValueOnce(
      refusal(
        409,
        "slot_price_changed",
        "The price of a device slot for the rest of the period is now 47 ₽.",
      ),
    );
    calls.profile.mockReturnValueOnce(answer(profile()));
    calls.shop.mockReturnValueOnce(answer({ ...shop(), deviceCharge: { ...charge, amount: 47 } }));
    await store.addDevice();
    expect(calls.addDevice).toHaveBeenCalledWith({ ...identity, amount: 48 });
    expect(lastToast()).toMatchObject({ type: "error", content: expect.stringMatching(/now 47 ₽/) });
    expect(store.$shop.get()?.deviceCharge?.amount).toBe(47);
    calls.addDevice.mockReturnValueOnce(answer({ success: true, charged: 47 }));
    calls.profile.mockReturnValueOnce(answer(profile()));
    calls.shop.mockReturnValueOnce(answer(shop()));
    await store.addDevice();
    expect(calls.addDevice).toHaveBeenLastCalledWith({ ...identity, amount: 47 });
  });

  test("a refused or failed slot purchase says why and changes nothing", async () => {
    showCabinet();
    calls.addDevice.mockReturnValueOnce(refusal(402, "card_declined", "The bank declined the card."));
    await store.addDevice();
    expect(lastToast()).toMatchObject({ type: "error", content: "The bank declined the card." });
    calls.addDevice.mockReturnValueOnce(networkFailure());
    await store.addDevice();
    expect(lastToast()).toMatchObject({ type: "error", content: en["cabinet.addDeviceFailed"] });
    expect(calls.profile).not.toHaveBeenCalled();
    expect(store.$profile.get()).toEqual(profile());
  });
});

describe("signing in where the customer is (/mobileShop, /mobileProfile)", () => {
  test("without a session the page asks to sign in in place and comes back to itself", async () => {
    vi.resetModules();
    browser.location.pathname = "/mobileProfile";
    const fresh = await import("../../../src/stores/cabinet");
    const { returnPath } = await import("../../../src/stores/sign-in-flow");
    fresh.offerSignInInPlace();
    calls.profile.mockReturnValueOnce(refusal(401, "session_ended", "Sign in again."));
    calls.shop.mockReturnValueOnce(answer(shop()));
    await fresh.loadCabinet();
    expect(fresh.$needsSignIn.get()).toBe(true);
    expect(browser.location.assign).not.toHaveBeenCalled();
    expect(returnPath()).toBe("/mobileProfile");
    browser.location.pathname = "/profile";
  });
});
