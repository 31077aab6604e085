import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { answer, networkFailure, openCustomerPage, refusal } from "../../helpers/customer-store-browser";
import { endpoints, pending, resetStoreApi } from "../../helpers/store-api";

// The wait for an SBP payment (DESIGN §6): its outcome is known only from the bank's
// notification, so the screen asks the server every 2 s, longer while it gets no answer, and
// stops at an outcome, at the QR's end or when the screen is left. The network and the
// clocks are replaced.
vi.mock("../../../src/lib/api-client", () => import("../../helpers/fake-api-client"));
const calls = endpoints({ status: (api) => api.shop.orderStatus.post });
const browser = openCustomerPage("https://kannt.example/profile");

const now = Date.parse("2026-11-26T10:00:00.000Z");
const order = {
  invoiceId: "first-sbp-1",
  qrUrl: "https://bank.example/qr/1",
  qrImage: "iVBORw0KGgo=",
  expiresAt: "2026-11-26T10:30:00.000Z",
  amount: 1,
  currency: "RUB" as const,
};

let store: typeof import("../../../src/stores/sbp-payment");
const onSettled = vi.fn();
beforeEach(async () => {
  vi.resetModules();
  resetStoreApi();
  browser.sessionStorage.clear();
  vi.useFakeTimers();
  vi.setSystemTime(now);
  store = await import("../../../src/stores/sbp-payment");
});
afterEach(() => {
  store.stopFollowing();
  vi.clearAllMocks();
  vi.useRealTimers();
});

const asked = () => calls.status.mock.calls.length;
const pendingStatus = () => answer({ status: "pending" });

describe("waiting for the bank", () => {
  test("the order is asked about every 2 s while it is pending, and kept in this tab", async () => {
    calls.status.mockImplementation(pendingStatus);
    store.followSbpOrder(order, onSettled);
    expect(store.$sbpWait.get()).toEqual({ state: "waiting", order });
    expect(JSON.parse(browser.sessionStorage.getItem("sbp_order") ?? "null")).toEqual(order);
    await vi.advanceTimersByTimeAsync(1_999);
    expect(asked()).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls.status).toHaveBeenCalledWith({ invoiceId: "first-sbp-1" });
    await vi.advanceTimersByTimeAsync(4_000);
    expect(asked()).toBe(3);
    expect(store.$sbpWait.get()).toEqual({ state: "waiting", order, isCheckFailing: false });
  });

  test("paid: the purchase takes the outcome, the wait and the kept order end", async () => {
    calls.status.mockReturnValueOnce(answer({ status: "completed" }));
    store.followSbpOrder(order, onSettled);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(onSettled).toHaveBeenCalledWith({ status: "completed" });
    expect(store.$sbpWait.get()).toEqual({ state: "none" });
    expect(browser.sessionStorage.getItem("sbp_order")).toBeNull();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(asked()).toBe(1);
  });

  test("the trial refused is the purchase's to tell, even with the order declined", async () => {
    const refused = {
      status: "declined",
      trialRefused: "account",
      reason: "Had one",
      fullPrice: { amount: 150 },
    };
    calls.status.mockReturnValueOnce(answer(refused));
    store.followSbpOrder(order, onSettled);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(onSettled).toHaveBeenCalledWith(refused);
  });

  test.each([
    ["declined", "Your bank declined the SBP payment."],
    ["expired", "The QR code has expired."],
  ])("%s: the server's reason is shown and nothing more is asked", async (status, reason) => {
    calls.status.mockReturnValueOnce(answer({ status, reason }));
    store.followSbpOrder(order, onSettled);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(store.$sbpWait.get()).toEqual({ state: "ended", order, reason });
    expect(onSettled).not.toHaveBeenCalled();
    expect(browser.sessionStorage.getItem("sbp_order")).toBeNull();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(asked()).toBe(1);
  });

  test("no answer: said on screen, and each wait doubles up to 30 s; an answer brings back 2 s", async () => {
    calls.status
      .mockReturnValueOnce(refusal(500))
      .mockReturnValueOnce(networkFailure())
      .mockRejectedValueOnce(new TypeError("Failed to fetch"))
      .mockReturnValueOnce(refusal(404, "order_not_found"))
      .mockReturnValueOnce(refusal(502))
      .mockImplementation(pendingStatus);
    store.followSbpOrder(order, onSettled);
    const times: number[] = [];
    for (let step = 0; step < 7; step++) {
      const before = asked();
      let waited = 0;
      while (asked() === before) {
        await vi.advanceTimersByTimeAsync(1_000);
        waited += 1_000;
      }
      times.push(waited);
      if (step === 0) expect(store.$sbpWait.get()).toEqual({ state: "waiting", order, isCheckFailing: true });
    }
    expect(times).toEqual([2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 2_000]);
    expect(store.$sbpWait.get()).toEqual({ state: "waiting", order, isCheckFailing: false });
  });

  test("a minute past the QR's end with no outcome, the wait ends and says so", async () => {
    calls.status.mockImplementation(() => networkFailure());
    store.followSbpOrder(order, onSettled);
    // The QR ends at 30 min; a minute on, the next turn (at most 30 s later) ends the wait.
    await vi.advanceTimersByTimeAsync(31 * 60_000 + 30_000);
    expect(store.$sbpWait.get()).toMatchObject({ state: "ended", reason: "purchase.sbpEnded" });
    const count = asked();
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    expect(asked()).toBe(count);
  });
});

describe("leaving and coming back", () => {
  test("a screen left asks no more, and an answer on its way then is for nobody", async () => {
    const { promise, finish } = pending();
    calls.status.mockReturnValueOnce(promise);
    store.followSbpOrder(order, onSettled);
    await vi.advanceTimersByTimeAsync(2_000);
    store.stopFollowing();
    finish(await answer({ status: "completed" }));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(onSettled).not.toHaveBeenCalled();
    expect(asked()).toBe(1);
    // The order stays kept for a return.
    expect(browser.sessionStorage.getItem("sbp_order")).not.toBeNull();
  });

  test("back on the page (a reload, the bank's app in its place) the kept order is asked about at once", async () => {
    browser.sessionStorage.setItem("sbp_order", JSON.stringify(order));
    calls.status.mockReturnValueOnce(answer({ status: "completed" }));
    store.resumeSbpOrder(onSettled);
    await vi.advanceTimersByTimeAsync(0);
    expect(onSettled).toHaveBeenCalledWith({ status: "completed" });
    // Resuming while already waiting changes nothing.
    store.followSbpOrder(order, onSettled);
    store.resumeSbpOrder(onSettled);
    await vi.advanceTimersByTimeAsync(0);
    expect(asked()).toBe(1);
  });

  test("a kept order whose QR ended long ago, or an unreadable one, is dropped", async () => {
    browser.sessionStorage.setItem(
      "sbp_order",
      JSON.stringify({ ...order, expiresAt: "2026-11-26T09:58:00.000Z" }),
    );
    store.resumeSbpOrder(onSettled);
    expect(browser.sessionStorage.getItem("sbp_order")).toBeNull();
    browser.sessionStorage.setItem("sbp_order", "{not json");
    store.resumeSbpOrder(onSettled);
    expect(browser.sessionStorage.getItem("sbp_order")).toBeNull();
    expect(store.$sbpWait.get()).toEqual({ state: "none" });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(asked()).toBe(0);
  });

  test("paying another way forgets the wait and its kept order", async () => {
    calls.status.mockImplementation(pendingStatus);
    store.followSbpOrder(order, onSettled);
    store.abandonSbpOrder();
    expect(store.$sbpWait.get()).toEqual({ state: "none" });
    expect(browser.sessionStorage.getItem("sbp_order")).toBeNull();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(asked()).toBe(0);
  });
});
