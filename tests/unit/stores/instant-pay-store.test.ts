import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { answer, networkFailure, openCustomerPage, refusal } from "../../helpers/customer-store-browser";
import { endpoints } from "../../helpers/store-api";

// The network and the browser's clock are replaced: these tests are about what /instantPay
// offers and where it sends a customer who already pays.
vi.mock("../../../src/lib/api-client", () => import("../../helpers/fake-api-client"));
const calls = endpoints({ profile: (api) => api.profile.post, health: (api) => api.health.get });

const browser = openCustomerPage("https://kannt.example/instantPay");
const browserNow = Date.parse("2026-11-26T10:00:00.000Z");
vi.useFakeTimers({ toFake: ["Date"] });
vi.setSystemTime(browserNow);
const { $language } = await import("../../../src/lib/i18n/runtime");
const { $email, $uid, $period } = await import("../../../src/stores/customer");
const { $orderTrial, $purchase } = await import("../../../src/stores/payment");
const { $serverClockOffset } = await import("../../../src/stores/server-clock");
const store = await import("../../../src/stores/instant-pay");

const profile = (subscriptionIsActive: boolean) => ({
  success: true,
  userInfo: { subscriptionIsActive, subscriptionStatus: subscriptionIsActive ? "ACTIVE" : "EXPIRED" },
});

beforeEach(() => {
  $email.set("someone@example.com");
  $uid.set("uid-1");
  $period.set("");
  $language.set("en");
  store.chooseInstantTariff(1);
  $orderTrial.set(undefined);
  $purchase.set({ state: "idle" });
  $serverClockOffset.set(0);
  calls.health.mockReturnValue(
    answer({ status: "ok", mode: "demo", time: new Date(browserNow).toISOString() }),
  );
});
afterEach(() => vi.clearAllMocks());

describe("the /instantPay offer", () => {
  test("a one-day trial for 1 rouble, then the chosen tariff's list price (spec §5)", () => {
    expect(store.$instantTerms.get()).toMatchObject({
      hasTrial: true,
      trialDays: 1,
      payNow: 1,
      nextCharge: { date: "2026-11-27T10:00:00.000Z", amount: 150 },
      periodMonths: 1,
      currency: "RUB",
    });
    store.chooseInstantTariff(12);
    expect(store.$instantTariff.get()).toBe(12);
    expect(store.$instantTerms.get()).toMatchObject({ nextCharge: { amount: 1080 }, periodMonths: 12 });
  });

  test("the stored trial days, the server's clock and the interface language's currency are used", () => {
    $period.set("7");
    $serverClockOffset.set(3_600_000);
    $language.set("kk");
    expect(store.$instantTerms.get()).toMatchObject({
      trialDays: 7,
      payNow: 10,
      nextCharge: { date: "2026-12-03T11:00:00.000Z", amount: 900 },
      currency: "KZT",
    });
  });

  test("an order's answer changes the offer; another tariff starts again from its list price", () => {
    $orderTrial.set({ hasTrial: false, amount: 150, reason: "This card has already had a trial." });
    $purchase.set({ state: "changed", message: "purchase.termsChanged" });
    expect(store.$instantTerms.get()).toMatchObject({ hasTrial: false, payNow: 150 });
    store.chooseInstantTariff(6);
    expect($orderTrial.get()).toBeUndefined();
    expect($purchase.get()).toEqual({ state: "idle" });
    expect(store.$instantTerms.get()).toMatchObject({
      hasTrial: true,
      payNow: 1,
      nextCharge: { amount: 600 },
    });
  });

  test("a purchase under way is not reset by choosing a tariff", () => {
    $purchase.set({ state: "working" });
    store.chooseInstantTariff(6);
    expect($purchase.get()).toEqual({ state: "working" });
  });

  test("without a stored e-mail the purchase is anonymous", () => {
    expect(store.$isAnonymousPurchase.get()).toBe(false);
    $email.set("");
    expect(store.$isAnonymousPurchase.get()).toBe(true);
  });
});

describe("opening /instantPay", () => {
  test("a customer whose subscription is active goes to the cabinet", async () => {
    calls.profile.mockReturnValueOnce(answer(profile(true)));
    await store.openInstantPay();
    expect(calls.profile).toHaveBeenCalledWith({ email: "someone@example.com", uid: "uid-1" });
    expect(browser.location.assign).toHaveBeenCalledWith("/profile");
  });

  test("a customer without an active subscription stays to buy one", async () => {
    calls.profile.mockReturnValueOnce(answer(profile(false)));
    await store.openInstantPay();
    expect(browser.location.assign).not.toHaveBeenCalled();
  });

  test("without a stored e-mail nobody is checked (spec §5); the server's clock is still asked", async () => {
    // A new page: the server's clock is asked once per page.
    vi.resetModules();
    const page = await import("../../../src/stores/instant-pay");
    (await import("../../../src/stores/customer")).$email.set("");
    calls.health.mockReturnValueOnce(
      answer({ status: "ok", mode: "demo", time: "2026-11-26T10:00:05.000Z" }),
    );
    await page.openInstantPay();
    expect(calls.profile).not.toHaveBeenCalled();
    expect(calls.health).toHaveBeenCalledOnce();
    expect((await import("../../../src/stores/server-clock")).$serverClockOffset.get()).toBe(5000);
  });

  test("a check that is refused or fails leaves the offer on screen: buying stays possible", async () => {
    calls.profile.mockReturnValueOnce(refusal(401, "session_ended", "Sign in again."));
    await store.openInstantPay();
    calls.profile.mockReturnValueOnce(networkFailure());
    await store.openInstantPay();
    calls.profile.mockRejectedValueOnce(new TypeError("Failed to fetch"));
    await store.openInstantPay();
    expect(browser.location.assign).not.toHaveBeenCalled();
    expect(store.$instantTerms.get()).toMatchObject({ payNow: 1 });
  });
});
