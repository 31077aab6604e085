import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { answer, networkFailure, openCustomerPage, refusal } from "../../helpers/customer-store-browser";
import { endpoints, pending } from "../../helpers/store-api";

// The network is replaced: these tests are about what the demo bank page shows after each answer.
vi.mock("../../../src/lib/api-client", () => import("../../helpers/fake-api-client"));
const calls = endpoints({
  qr: (api) => api.dev.sandbox.sbp.qr.get,
  pay: (api) => api.dev.sandbox.sbp.pay.post,
});

openCustomerPage("https://kannt.example/dev-sbp?qr=AS1");
const store = await import("../../../src/stores/dev-sbp");

const qr = (fields: Record<string, unknown> = {}) => ({
  qr: "AS1",
  merchant: "Kannt",
  amount: 150,
  currency: "RUB",
  description: "Kannt, 1 month",
  expiresAt: "2026-11-26T10:30:00.000Z",
  isExpired: false,
  asksAutopay: false,
  payerPhone: null,
  state: "created",
  attempts: 0,
  ...fields,
});

/** The page, opened on a QR the bank answered with. */
async function opened(fields: Record<string, unknown> = {}) {
  calls.qr.mockReturnValueOnce(answer(qr(fields)));
  await store.openQr("AS1");
}

beforeEach(() => {
  store.$devSbp.set({ status: "loading" });
  store.$autopayAccount.set("ok");
});
afterEach(() => vi.clearAllMocks());

describe("the demo bank page", () => {
  test("shows the QR the address names", async () => {
    await opened();
    expect(calls.qr).toHaveBeenCalledWith({ query: { qr: "AS1" } });
    expect(store.$devSbp.get()).toEqual({ status: "ready", qr: qr() });
  });

  test("a page without a QR, or with one the bank does not have, says so; a failed look-up is not that", async () => {
    await store.openQr(null);
    expect(store.$devSbp.get()).toEqual({ status: "missing" });
    expect(calls.qr).not.toHaveBeenCalled();
    calls.qr.mockReturnValueOnce(refusal(404, "sbp_qr_not_found"));
    await store.openQr("AS1");
    expect(store.$devSbp.get()).toEqual({ status: "missing" });
    calls.qr.mockReturnValueOnce(networkFailure());
    await store.openQr("AS1");
    expect(store.$devSbp.get()).toEqual({ status: "failed", cause: "network" });
    calls.qr.mockReturnValueOnce(refusal(500));
    await store.openQr("AS1");
    expect(store.$devSbp.get()).toEqual({ status: "failed", cause: "server" });
  });

  test("pay is sent once, busy meanwhile, then shows it paid with its transaction", async () => {
    await opened();
    const held = pending();
    calls.pay.mockReturnValueOnce(held.promise);
    const paying = store.decide("pay");
    expect(store.$devSbp.get()).toMatchObject({ status: "ready", action: "pay" });
    await store.decide("decline");
    held.finish({ data: { success: true, transactionId: 1000007, message: null }, error: null });
    await paying;
    expect(calls.pay).toHaveBeenCalledTimes(1);
    expect(calls.pay).toHaveBeenCalledWith({ qr: "AS1", outcome: "pay", account: undefined });
    expect(store.$devSbp.get()).toEqual({
      status: "done",
      qr: qr(),
      outcome: "paid",
      transactionId: 1000007,
      checkCode: undefined,
    });
  });

  test("with autopay asked, the chosen behaviour goes with the payment, and not with a decline", async () => {
    await opened({ asksAutopay: true });
    store.chooseAutopayAccount("revoked");
    calls.pay.mockReturnValueOnce(answer({ success: true, transactionId: 1, message: null }));
    await store.decide("pay");
    expect(calls.pay).toHaveBeenLastCalledWith({ qr: "AS1", outcome: "pay", account: "revoked" });
    await opened({ asksAutopay: true });
    calls.pay.mockReturnValueOnce(answer({ success: false, transactionId: 2, message: "InsufficientFunds" }));
    await store.decide("decline");
    expect(calls.pay).toHaveBeenLastCalledWith({ qr: "AS1", outcome: "decline", account: undefined });
    expect(store.$devSbp.get()).toMatchObject({ status: "done", outcome: "declined", transactionId: 2 });
  });

  test("the shop's refusal and an expiry are told apart from a decline", async () => {
    await opened();
    calls.pay.mockReturnValueOnce(
      answer({
        success: false,
        transactionId: 3,
        message: "The shop refused the payment (code 12).",
        checkCode: 12,
      }),
    );
    await store.decide("pay");
    expect(store.$devSbp.get()).toMatchObject({ status: "done", outcome: "refusedByShop", checkCode: 12 });
    await opened();
    calls.pay.mockReturnValueOnce(answer({ success: false, message: "QR expired" }));
    await store.decide("pay");
    expect(store.$devSbp.get()).toMatchObject({
      status: "done",
      outcome: "expired",
      transactionId: undefined,
    });
  });

  test("a payment that did not get through leaves the choice open, saying why", async () => {
    await opened();
    calls.pay.mockReturnValueOnce(networkFailure());
    await store.decide("pay");
    expect(store.$devSbp.get()).toEqual({ status: "ready", qr: qr(), failure: "network" });
    calls.pay.mockReturnValueOnce(refusal(404, "sbp_qr_not_found"));
    await store.decide("pay");
    expect(store.$devSbp.get()).toEqual({ status: "missing" });
  });
});
