import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { answer, networkFailure, openCustomerPage, refusal } from "../../helpers/customer-store-browser";
import { endpoints, pending } from "../../helpers/store-api";

// The network, the gateway's widget script and its widget are replaced: these tests are about
// what the purchase's store shows and keeps at each step.
vi.mock("../../../src/lib/api-client", () => import("../../helpers/fake-api-client"));
const calls = endpoints({
  order: (api) => api.shop.order.post,
  orderStatus: (api) => api.shop.orderStatus.post,
  settings: (api) => api.payments.settings.get,
});

const browser = openCustomerPage("https://kannt.example/instantPay");

type Callbacks = {
  onSuccess: (options: unknown) => Promise<void>;
  onFail: (reason: string) => Promise<void>;
};
/** The widget the gateway's script defines; each `pay` is kept to be answered by the test. */
const widget = {
  pay: vi.fn<(kind: string, options: Record<string, unknown>, callbacks: Callbacks) => void>(),
};
class Widget {
  pay = widget.pay;
}
const scripts: { src: string; onload?: () => void; onerror?: () => void }[] = [];
let isScriptLoading = true;
const sendBeacon = vi.fn((_url: string, _body: Blob) => true);
vi.stubGlobal("navigator", { userAgent: "test", sendBeacon });
vi.stubGlobal("document", {
  createElement: () => ({}),
  head: {
    append(script: (typeof scripts)[number]) {
      scripts.push(script);
      if (isScriptLoading) queueMicrotask(() => script.onload?.());
      else queueMicrotask(() => script.onerror?.());
    },
  },
});

let store: typeof import("../../../src/stores/payment");
let customer: typeof import("../../../src/stores/customer");
let toasts: typeof import("../../../src/lib/toast/toast-store");
let methods: typeof import("../../../src/stores/payment-methods");
let sbp: typeof import("../../../src/stores/sbp-payment");
beforeEach(async () => {
  // Each test starts a page: no widget script loaded yet.
  vi.resetModules();
  browser.localStorage.clear();
  browser.sessionStorage.clear();
  scripts.length = 0;
  isScriptLoading = true;
  // No window while the modules load: with one, the interface language would start loading.
  Reflect.deleteProperty(globalThis, "window");
  store = await import("../../../src/stores/payment");
  customer = await import("../../../src/stores/customer");
  toasts = await import("../../../src/lib/toast/toast-store");
  methods = await import("../../../src/stores/payment-methods");
  sbp = await import("../../../src/stores/sbp-payment");
  Object.assign(globalThis, { window: { cp: { CloudPayments: Widget } } });
  customer.$email.set("someone@example.com");
  customer.$uid.set("uid-1");
});
afterEach(() => {
  sbp.stopFollowing();
  vi.clearAllMocks();
});

const order = (amount: number, extra: Record<string, unknown> = {}) =>
  answer({
    publicId: "pk_test",
    amount,
    currency: "RUB",
    invoiceId: "inv-1",
    description: "Kannt",
    ...extra,
  });
const settings = () => answer({ widgetScriptUrl: "https://widget.example/cp.js" });
const tracked = () => sendBeacon.mock.calls.map(([, body]) => body);
const lastToast = () => toasts.$toasts.get().at(-1);

/** Orders and opens the widget for a 1-rouble trial of one month; answers the widget's callbacks. */
async function openWidget(anonymous = false): Promise<Callbacks> {
  calls.order.mockReturnValueOnce(order(1, { trial: true }));
  calls.settings.mockReturnValueOnce(settings());
  await store.startPurchase({ tariff: 1, period: 7, expectedAmount: 1, anonymous });
  const callbacks = widget.pay.mock.calls.at(-1)?.[2];
  if (!callbacks) throw new Error("the widget did not open");
  return callbacks;
}

describe("a purchase", () => {
  test("a customer's order is priced by the server and opens the widget with its answer", async () => {
    const { promise: later, finish } = pending();
    calls.order.mockReturnValueOnce(later);
    calls.settings.mockReturnValueOnce(settings());
    const buying = store.startPurchase({ tariff: 6, period: 7, expectedAmount: 1 });
    expect(store.$purchase.get()).toEqual({ state: "working" });
    finish(await order(1, { trial: true, reason: "" }));
    await buying;
    expect(calls.order).toHaveBeenCalledWith({
      email: "someone@example.com",
      uid: "uid-1",
      tariff: 6,
      period: 7,
    });
    expect(scripts.map((script) => script.src)).toEqual(["https://widget.example/cp.js"]);
    expect(widget.pay).toHaveBeenCalledWith(
      "charge",
      {
        publicId: "pk_test",
        amount: 1,
        currency: "RUB",
        invoiceId: "inv-1",
        description: "Kannt",
        skin: "mini",
        requireEmail: false,
      },
      expect.anything(),
    );
    expect(tracked()).toHaveLength(1);
    expect(store.$purchase.get()).toEqual({ state: "working" });
  });

  test("an anonymous order carries a payment id made once and kept as userID", async () => {
    customer.$email.set("");
    browser.localStorage.setItem("i", "7");
    browser.localStorage.setItem("j", "6");
    await openWidget(true);
    const paymentId = browser.localStorage.getItem("userID");
    expect(paymentId).toMatch(/^[0-9a-f]{30}_7_6$/);
    expect(calls.order).toHaveBeenCalledWith({ prepaidToken: paymentId, tariff: 1, period: 7 });
    await openWidget(true);
    expect(calls.order).toHaveBeenLastCalledWith(expect.objectContaining({ prepaidToken: paymentId }));
  });

  test("a refused order shows the server's words; a failed one says the order failed", async () => {
    calls.order.mockReturnValueOnce(refusal(409, "subscription_active", "You already have a subscription."));
    await store.startPurchase({ tariff: 1, period: 1, expectedAmount: 1 });
    expect(store.$purchase.get()).toEqual({ state: "failed", message: "You already have a subscription." });
    expect(lastToast()).toMatchObject({ type: "error", content: "You already have a subscription." });
    calls.order.mockReturnValueOnce(networkFailure());
    await store.startPurchase({ tariff: 1, period: 1, expectedAmount: 1 });
    expect(store.$purchase.get()).toEqual({ state: "failed", message: "purchase.orderFailed" });
    calls.order.mockRejectedValueOnce(new TypeError("Failed to fetch"));
    await store.startPurchase({ tariff: 1, period: 1, expectedAmount: 1 });
    expect(store.$purchase.get()).toEqual({ state: "failed", message: "purchase.orderFailed" });
    expect(widget.pay).not.toHaveBeenCalled();
  });

  test("an order the screen did not promise never opens the widget: the screen takes its terms first", async () => {
    calls.order.mockReturnValueOnce(
      order(299, { trial: false, reason: "This card has already had a trial." }),
    );
    await store.startPurchase({ tariff: 1, period: 7, expectedAmount: 1 });
    expect(store.$orderTrial.get()).toEqual({
      hasTrial: false,
      amount: 299,
      reason: "This card has already had a trial.",
    });
    expect(store.$purchase.get()).toEqual({ state: "changed", message: "purchase.termsChanged" });
    expect(calls.settings).not.toHaveBeenCalled();
    expect(widget.pay).not.toHaveBeenCalled();
  });

  test("a widget script that did not load fails the purchase, and the next one loads it again", async () => {
    isScriptLoading = false;
    calls.order.mockReturnValueOnce(order(1));
    calls.settings.mockReturnValueOnce(settings());
    await store.startPurchase({ tariff: 1, period: 7, expectedAmount: 1 });
    expect(store.$purchase.get()).toEqual({ state: "failed", message: "purchase.orderFailed" });
    isScriptLoading = true;
    await openWidget();
    expect(scripts).toHaveLength(2);
  });

  test("without the payment settings the purchase fails and says so", async () => {
    calls.order.mockReturnValueOnce(order(1));
    calls.settings.mockReturnValueOnce(refusal(500));
    await store.startPurchase({ tariff: 1, period: 7, expectedAmount: 1 });
    expect(store.$purchase.get()).toEqual({ state: "failed", message: "purchase.orderFailed" });
  });
});

describe("the widget's answer", () => {
  test("paid by a signed-in customer: payment=completed is stored and the page reloads with a toast", async () => {
    const { onSuccess } = await openWidget();
    calls.orderStatus.mockReturnValueOnce(answer({ status: "completed" }));
    await onSuccess({});
    expect(calls.orderStatus).toHaveBeenCalledWith({ invoiceId: "inv-1" });
    expect(browser.localStorage.getItem("payment")).toBe("completed");
    expect(store.$purchase.get()).toEqual({ state: "idle" });
    expect(browser.location.reload).toHaveBeenCalledOnce();
    toasts.showQueuedToast();
    expect(lastToast()).toMatchObject({ type: "success", content: "purchase.paidToast" });
    expect(tracked()).toHaveLength(2);
  });

  test("paid anonymously: on to /instantLogin to attach the purchase to an account", async () => {
    customer.$email.set("");
    const { onSuccess } = await openWidget(true);
    calls.orderStatus.mockReturnValueOnce(answer({ status: "completed" }));
    await onSuccess({});
    expect(browser.location.assign).toHaveBeenCalledWith("/instantLogin");
    expect(browser.localStorage.getItem("payment")).toBe("completed");
  });

  test("paid, yet the trial was refused at Pay: the plan at its price is offered with the reason", async () => {
    const { onSuccess } = await openWidget();
    calls.orderStatus.mockReturnValueOnce(
      answer({
        status: "refunded",
        trialRefused: "card",
        reason: "This card has already had a trial.",
        fullPrice: { amount: 299, currency: "RUB" },
      }),
    );
    await onSuccess({});
    expect(store.$orderTrial.get()).toEqual({
      hasTrial: false,
      amount: 299,
      reason: "This card has already had a trial.",
      isFullPriceAsked: true,
    });
    expect(store.$purchase.get()).toEqual({ state: "changed", message: "purchase.termsChanged" });
    expect(browser.localStorage.getItem("payment")).toBeNull();
    expect(browser.location.reload).not.toHaveBeenCalled();
  });

  test("the plan at its price is then ordered as such, with a new payment id for an anonymous buyer", async () => {
    customer.$email.set("");
    store.$orderTrial.set({ hasTrial: false, amount: 299, isFullPriceAsked: true });
    browser.localStorage.setItem("userID", "spent-payment-id");
    calls.order.mockReturnValueOnce(order(299));
    calls.settings.mockReturnValueOnce(settings());
    await store.startPurchase({ tariff: 1, period: 7, expectedAmount: 299, anonymous: true });
    const [body] = calls.order.mock.calls.at(-1) ?? [];
    expect(body).toMatchObject({ fullPrice: true, tariff: 1 });
    expect(body.prepaidToken).not.toBe("spent-payment-id");
    expect(widget.pay).toHaveBeenCalledOnce();
  });

  test.each([
    ["User has cancelled", "purchase.widgetClosed"],
    ["Insufficient funds", "purchase.declinedFunds"],
    ["Card expired", "purchase.declinedExpired"],
    ["InvalidCardNumber", "purchase.declinedNumber"],
    ["Do not honor", "purchase.declinedGeneric"],
  ])("a decline (%s) is told in the customer's language", async (reason, message) => {
    const { onFail } = await openWidget();
    calls.orderStatus.mockReturnValueOnce(answer({ status: "declined" }));
    await onFail(reason);
    expect(store.$purchase.get()).toEqual({ state: "failed", message });
    expect(lastToast()).toMatchObject({ type: "error", content: message });
    expect(browser.localStorage.getItem("payment")).toBeNull();
  });

  test("a decline whose status cannot be read is still a decline", async () => {
    const { onFail } = await openWidget();
    calls.orderStatus.mockRejectedValueOnce(new TypeError("Failed to fetch"));
    await onFail("Insufficient funds");
    expect(store.$purchase.get()).toEqual({ state: "failed", message: "purchase.declinedFunds" });
  });

  test("another card goes back to the trial's terms", () => {
    store.$orderTrial.set({ hasTrial: false, amount: 299, isFullPriceAsked: true });
    store.$purchase.set({ state: "changed", message: "purchase.termsChanged" });
    store.tryAnotherCard();
    expect(store.$orderTrial.get()).toBeUndefined();
    expect(store.$purchase.get()).toEqual({ state: "idle" });
  });
});

describe("preloading the widget (/mobileShop)", () => {
  test("the script is loaded up front once, and a purchase then opens the widget without loading it again", async () => {
    calls.settings.mockReturnValueOnce(settings());
    await store.preloadPaymentWidget();
    expect(scripts).toHaveLength(1);
    await openWidget();
    expect(scripts).toHaveLength(1);
  });

  test("a failed preload changes nothing on screen", async () => {
    calls.settings.mockReturnValueOnce(networkFailure());
    await store.preloadPaymentWidget();
    calls.settings.mockRejectedValueOnce(new TypeError("Failed to fetch"));
    await store.preloadPaymentWidget();
    expect(scripts).toHaveLength(0);
    expect(store.$purchase.get()).toEqual({ state: "idle" });
  });
});

describe("paying by SBP", () => {
  const qr = {
    qrUrl: "https://bank.example/qr/1",
    qrImage: "iVBORw0KGgo=",
    expiresAt: "2099-01-01T10:30:00.000Z",
  };
  /** The purchase in roubles, SBP offered (and the payer's phone asked for, when said) and chosen. */
  const chooseSbp = (isPhoneNeeded = false) => {
    methods.$paymentOffer.set({ currency: "RUB", methods: ["card", "sbp"], isPhoneNeeded });
    methods.choosePayment({ method: "sbp" });
  };
  const sbpOrder = (invoiceId = "inv-1") => order(1, { trial: true, invoiceId, sbp: qr });

  test("the order asks for SBP and autopay; no widget opens: the screen waits with the order's QR", async () => {
    chooseSbp();
    calls.order.mockReturnValueOnce(sbpOrder());
    await store.startPurchase({ tariff: 1, period: 7, expectedAmount: 1 });
    expect(calls.order).toHaveBeenCalledWith({
      email: "someone@example.com",
      uid: "uid-1",
      tariff: 1,
      period: 7,
      method: "sbp",
      saveMethod: true,
    });
    expect(calls.settings).not.toHaveBeenCalled();
    expect(widget.pay).not.toHaveBeenCalled();
    expect(sbp.$sbpWait.get()).toEqual({
      state: "waiting",
      order: { ...qr, invoiceId: "inv-1", amount: 1, currency: "RUB" },
    });
    expect(store.$purchase.get()).toEqual({ state: "idle" });
    expect(tracked()).toHaveLength(1);
  });

  test("paid: the same way on as the widget's, a toast and a reload", async () => {
    chooseSbp();
    calls.order.mockReturnValueOnce(sbpOrder());
    await store.startPurchase({ tariff: 1, period: 7, expectedAmount: 1 });
    calls.orderStatus.mockReturnValueOnce(answer({ status: "completed" }));
    await sbp.checkSbpOrderNow();
    expect(browser.localStorage.getItem("payment")).toBe("completed");
    expect(browser.location.reload).toHaveBeenCalledOnce();
    toasts.showQueuedToast();
    expect(lastToast()).toMatchObject({ type: "success", content: "purchase.paidToast" });
  });

  test("paid anonymously: on to /instantLogin", async () => {
    customer.$email.set("");
    chooseSbp();
    calls.order.mockReturnValueOnce(sbpOrder());
    await store.startPurchase({ tariff: 1, period: 7, expectedAmount: 1, anonymous: true });
    calls.orderStatus.mockReturnValueOnce(answer({ status: "completed" }));
    await sbp.checkSbpOrderNow();
    expect(browser.location.assign).toHaveBeenCalledWith("/instantLogin");
  });

  test("where the terminal needs the payer's phone, none or a wrong one sends no order and says so", async () => {
    chooseSbp(true);
    methods.choosePayment({ phone: "+7 912" });
    await store.startPurchase({ tariff: 1, period: 7, expectedAmount: 1 });
    expect(calls.order).not.toHaveBeenCalled();
    expect(methods.$paymentChoice.get().isPhoneChecked).toBe(true);
    methods.choosePayment({ phone: "+7 912 345 67 89" });
    calls.order.mockReturnValueOnce(sbpOrder());
    await store.startPurchase({ tariff: 1, period: 7, expectedAmount: 1 });
    expect(calls.order).toHaveBeenCalledWith(expect.objectContaining({ payerPhone: "+79123456789" }));
  });

  test("while the order is on its way the purchase is working (its buttons are disabled), then waits", async () => {
    chooseSbp();
    const { promise, finish } = pending();
    calls.order.mockReturnValueOnce(promise);
    const buying = store.startPurchase({ tariff: 1, period: 7, expectedAmount: 1 });
    expect(store.$purchase.get()).toEqual({ state: "working" });
    expect(sbp.$sbpWait.get()).toEqual({ state: "none" });
    finish(await sbpOrder());
    await buying;
    expect(store.$purchase.get()).toEqual({ state: "idle" });
    expect(sbp.$sbpWait.get().state).toBe("waiting");
  });

  test("an anonymous buyer's order that the bank declined is spent: the new QR's order has a new payment id", async () => {
    customer.$email.set("");
    chooseSbp();
    calls.order.mockReturnValueOnce(sbpOrder());
    await store.startPurchase({ tariff: 1, period: 7, expectedAmount: 1, anonymous: true });
    const spent = browser.localStorage.getItem("userID");
    calls.orderStatus.mockReturnValueOnce(answer({ status: "declined", reason: "Declined by your bank." }));
    await sbp.checkSbpOrderNow();
    expect(sbp.$sbpWait.get()).toMatchObject({ state: "ended", reason: "Declined by your bank." });
    calls.order.mockReturnValueOnce(sbpOrder("inv-2"));
    await store.startPurchase({ tariff: 1, period: 7, expectedAmount: 1, anonymous: true });
    const renewed = calls.order.mock.calls.at(-1)?.[0].prepaidToken;
    expect(renewed).not.toBe(spent);
    expect(sbp.$sbpWait.get()).toMatchObject({ state: "waiting", order: { invoiceId: "inv-2" } });
    // That QR ends too, and the buyer pays by card: a new payment id again.
    calls.orderStatus.mockReturnValueOnce(answer({ status: "expired", reason: "The QR code has expired." }));
    await sbp.checkSbpOrderNow();
    store.payAnotherWay();
    await openWidget(true);
    expect(calls.order.mock.calls.at(-1)?.[0]).not.toHaveProperty("method");
    expect(calls.order.mock.calls.at(-1)?.[0].prepaidToken).not.toBe(renewed);
  });

  test("an anonymous buyer's card declined in the widget: the next order has a new payment id too", async () => {
    customer.$email.set("");
    const { onFail } = await openWidget(true);
    const spent = browser.localStorage.getItem("userID");
    calls.orderStatus.mockReturnValueOnce(answer({ status: "declined" }));
    await onFail("Insufficient funds");
    await openWidget(true);
    expect(calls.order.mock.calls.at(-1)?.[0].prepaidToken).not.toBe(spent);
  });

  test("paying by card instead leaves the wait and chooses the card", async () => {
    chooseSbp();
    calls.order.mockReturnValueOnce(sbpOrder());
    await store.startPurchase({ tariff: 1, period: 7, expectedAmount: 1 });
    store.payAnotherWay();
    expect(sbp.$sbpWait.get()).toEqual({ state: "none" });
    expect(methods.chosenMethod()).toBe("card");
    expect(store.$purchase.get()).toEqual({ state: "idle" });
  });
});
