import { beforeEach, describe, expect, test, vi } from "vitest";
import { answer, networkFailure, openCustomerPage, refusal } from "../../helpers/customer-store-browser";
import { endpoints, pending, resetStoreApi } from "../../helpers/store-api";

// The purchase screens offer what the server takes for the purchase's currency (DESIGN §6),
// and the SBP choice's autopay tick and payer's phone (SBP_PAYER_PHONE) go with the order.
vi.mock("../../../src/lib/api-client", () => import("../../helpers/fake-api-client"));
const calls = endpoints({ settings: (api) => api.payments.settings.get });
openCustomerPage("https://kannt.example/profile");

let store: typeof import("../../../src/stores/payment-methods");
beforeEach(async () => {
  vi.resetModules();
  resetStoreApi();
  store = await import("../../../src/stores/payment-methods");
});

const settings = (methods: string[], sbpNeedsPhone = false) =>
  answer({ widgetScriptUrl: "/widget.js", methods, sbpNeedsPhone });

describe("what the purchase can be paid by", () => {
  test("asked once per currency, with the purchase's currency", async () => {
    calls.settings.mockReturnValueOnce(settings(["card", "sbp"]));
    await store.loadPaymentOffer("RUB");
    await store.loadPaymentOffer("RUB");
    expect(calls.settings).toHaveBeenCalledTimes(1);
    expect(calls.settings).toHaveBeenCalledWith({ query: { currency: "RUB" } });
    expect(store.$paymentOffer.get()).toEqual({
      currency: "RUB",
      methods: ["card", "sbp"],
      isPhoneNeeded: false,
    });
    // A language switch on /instantPay: tenge now, and the server offers the card only.
    calls.settings.mockReturnValueOnce(settings(["card"]));
    await store.loadPaymentOffer("KZT");
    expect(store.$paymentOffer.get()?.methods).toEqual(["card"]);
  });

  test("without an answer the card alone is offered, and the next screen asks again", async () => {
    calls.settings.mockReturnValueOnce(refusal(500));
    await store.loadPaymentOffer("RUB");
    expect(store.$paymentOffer.get()).toEqual({ currency: "RUB", methods: ["card"], isPhoneNeeded: false });
    calls.settings.mockReturnValueOnce(networkFailure());
    await store.loadPaymentOffer("RUB");
    calls.settings.mockRejectedValueOnce(new TypeError("Failed to fetch"));
    await store.loadPaymentOffer("RUB");
    expect(store.$paymentOffer.get()?.methods).toEqual(["card"]);
    calls.settings.mockReturnValueOnce(settings(["card", "sbp"]));
    await store.loadPaymentOffer("RUB");
    expect(calls.settings).toHaveBeenCalledTimes(4);
    expect(store.$paymentOffer.get()?.methods).toEqual(["card", "sbp"]);
  });

  test("an answer for a currency no longer on screen is dropped", async () => {
    const { promise, finish } = pending();
    calls.settings.mockReturnValueOnce(promise).mockReturnValueOnce(settings(["card"]));
    const roubles = store.loadPaymentOffer("RUB");
    await store.loadPaymentOffer("KZT");
    finish(await settings(["card", "sbp"]));
    await roubles;
    expect(store.$paymentOffer.get()).toMatchObject({ currency: "KZT", methods: ["card"] });
  });
});

describe("the buyer's choice", () => {
  test("SBP chosen where it is not offered pays by card; the order says nothing more for a card", async () => {
    calls.settings.mockReturnValueOnce(settings(["card"]));
    await store.loadPaymentOffer("KZT");
    store.choosePayment({ method: "sbp" });
    expect(store.chosenMethod()).toBe("card");
    expect(store.orderPayment()).toBeUndefined();
  });

  test("by SBP the order carries the autopay tick, saved by default as a card is", async () => {
    calls.settings.mockReturnValueOnce(settings(["card", "sbp"]));
    await store.loadPaymentOffer("RUB");
    store.choosePayment({ method: "sbp" });
    expect(store.orderPayment()).toEqual({ method: "sbp", saveMethod: true });
    store.choosePayment({ saveMethod: false, phone: "+7 912 345-67-89" });
    // No phone is sent where the terminal does not ask for one.
    expect(store.orderPayment()).toEqual({ method: "sbp", saveMethod: false });
    expect(store.isPhoneMissing()).toBe(false);
  });

  test("where the terminal needs the payer's phone, it must be +7 and 10 digits, and goes as +7XXXXXXXXXX", async () => {
    calls.settings.mockReturnValueOnce(settings(["card", "sbp"], true));
    await store.loadPaymentOffer("RUB");
    store.choosePayment({ method: "sbp" });
    expect(store.isPhoneMissing()).toBe(true);
    store.choosePayment({ phone: "+7 912 345" });
    expect(store.isPhoneMissing()).toBe(true);
    store.choosePayment({ phone: "8 (912) 345-67-89" });
    expect(store.isPhoneMissing()).toBe(false);
    expect(store.orderPayment()).toEqual({ method: "sbp", saveMethod: true, payerPhone: "+79123456789" });
    // Paying by card, the phone is not asked for.
    store.choosePayment({ method: "card", phone: "" });
    expect(store.isPhoneMissing()).toBe(false);
  });
});
