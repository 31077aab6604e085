import { afterEach, describe, expect, test, vi } from "vitest";
import { answer, networkFailure, openCustomerPage, refusal } from "../../helpers/customer-store-browser";
import { endpoints } from "../../helpers/store-api";

// The network is replaced: these tests are about what the cabinet's payment history shows.
vi.mock("../../../src/lib/api-client", () => import("../../helpers/fake-api-client"));
const calls = endpoints({ payments: (api) => api.profile.payments.post });

openCustomerPage("https://kannt.example/profile");
const { $email, $uid } = await import("../../../src/stores/customer");
const store = await import("../../../src/stores/payment-history");
$email.set("someone@example.com");
$uid.set("uid-1");
afterEach(() => vi.clearAllMocks());

const payment = (id: string) => ({
  id,
  paymentId: 1,
  date: "2026-11-21T12:00:00.000Z",
  amount: 299,
  currency: "RUB",
  purpose: "renewal",
  months: 1,
  trialDays: null,
  status: "paid",
  receiptUrl: null,
  method: "sbp",
});

describe("the payment history", () => {
  test("the customer's payments are asked for and shown, with whether more exist", async () => {
    calls.payments.mockReturnValueOnce(answer({ payments: [payment("p2"), payment("p1")], hasMore: true }));
    const loading = store.loadPaymentHistory();
    expect(store.$paymentHistory.get()).toEqual({ status: "loading" });
    await loading;
    expect(calls.payments).toHaveBeenCalledWith({ email: "someone@example.com", uid: "uid-1" });
    expect(store.$paymentHistory.get()).toEqual({
      status: "ready",
      payments: [payment("p2"), payment("p1")],
      hasMore: true,
    });
  });

  test("no payments yet is an empty history", async () => {
    calls.payments.mockReturnValueOnce(answer({ payments: [], hasMore: false }));
    await store.loadPaymentHistory();
    expect(store.$paymentHistory.get()).toEqual({ status: "ready", payments: [], hasMore: false });
  });

  test("a refusal, a network failure or a thrown call is a failure, never shown as no payments", async () => {
    for (const failed of [
      () => refusal(401, "session_ended", "Sign in again."),
      () => refusal(500),
      networkFailure,
      () => Promise.reject(new TypeError("Failed to fetch")),
    ]) {
      calls.payments.mockImplementationOnce(failed);
      await store.loadPaymentHistory();
      expect(store.$paymentHistory.get()).toEqual({ status: "failed" });
    }
  });

  test("the retry after a failure shows the history", async () => {
    calls.payments.mockReturnValueOnce(networkFailure());
    await store.loadPaymentHistory();
    calls.payments.mockReturnValueOnce(answer({ payments: [payment("p1")], hasMore: false }));
    await store.loadPaymentHistory();
    expect(store.$paymentHistory.get()).toEqual({
      status: "ready",
      payments: [payment("p1")],
      hasMore: false,
    });
  });
});
