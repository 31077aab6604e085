import { describe, expect, test } from "vitest";
import { startProviderPayment } from "../../../bff/modules/payments/orders/provider-order";
import { apiOf, dataOf } from "../../helpers/api";
import { makeTestApp } from "../../helpers/app";
import { signIn } from "../../helpers/customers";
import {
  payAtCheckout,
  paymentIdOf,
  paymentRowsOf,
  profileOf,
  returnUrl,
  subscriptionRowOf,
  yooKassaLedger,
  yooKassaOrder,
} from "../../helpers/yookassa";

// DESIGN §6 and §13: a first order opened at YooKassa (startProviderPayment, which the order
// path calls once the operator's choice sends an order there), paid by card on its page or
// by SBP on the demo bank page, settles through the same code as CloudPayments' Pay:
// the subscription starts, the method is saved with provider yookassa, the receipt went
// as YooKassa's receipt object, and the trial is once per customer and card.

const { app, context } = await makeTestApp();
const api = apiOf(app);

const orderStatus = (invoiceId: string) => dataOf(api.shop.orderStatus.post({ invoiceId }));

describe("by card on YooKassa's page", () => {
  test("paid with save: the trial starts, the card is saved at YooKassa, our order names its payment", async () => {
    const customer = await signIn(app, "yk-card@example.com", { period: 1 });
    const { options, started } = await yooKassaOrder(app, context, customer);
    expect(started).toEqual({
      provider: "yookassa",
      invoiceId: options.invoiceId,
      confirmationUrl: expect.stringContaining("/api/dev/sandbox/yookassa/checkout?orderId="),
    });
    const paymentId = paymentIdOf(started);
    const [pending] = await paymentRowsOf(context, options.accountId);
    expect(pending).toMatchObject({
      status: "pending",
      provider: "yookassa",
      method: "card",
      provider_payment_id: paymentId,
    });
    expect(await orderStatus(options.invoiceId)).toEqual({ status: "pending" });

    const paid = await payAtCheckout(app, paymentId, "4242 4242 4242 4242", "12/30");
    expect(paid).toEqual({ success: true, status: "succeeded", message: null, returnUrl });

    expect((await profileOf(app, customer)).userInfo).toMatchObject({ subscriptionStatus: "ACTIVE" });
    expect(await orderStatus(options.invoiceId)).toEqual({ status: "completed" });
    const [completed] = await paymentRowsOf(context, options.accountId);
    expect(completed).toMatchObject({
      status: "completed",
      transaction_id: paymentId,
      card_first_six: "424242",
      card_last_four: "4242",
      card_exp_date: "12/30",
      card_fingerprint: "424242|4242|12/30",
    });
    expect(await subscriptionRowOf(context, options.accountId)).toMatchObject({
      status: "ACTIVE",
      card_token: paymentId,
      card_last_four: "4242",
      saved_provider: "yookassa",
      saved_method: "card",
    });

    // YooKassa's own record: the receipt as its receipt object, our invoice in the metadata,
    // the method saved, and the notification answered.
    const [entry] = await yooKassaLedger(app, options.accountId);
    expect(entry).toMatchObject({
      id: paymentId,
      status: "succeeded",
      amount: options.amount,
      currency: "RUB",
      metadata: { invoice_id: options.invoiceId, account_id: options.accountId },
      method: "bank_card",
      isMethodSaved: true,
      receipt: {
        customer: { email: customer.email },
        items: [
          {
            description: expect.stringContaining("Подписка Kannt"),
            quantity: "1.00",
            amount: { value: options.amount.toFixed(2), currency: "RUB" },
            vat_code: 1,
            payment_subject: "service",
            payment_mode: "full_payment",
          },
        ],
        tax_system_code: 2,
      },
    });
    expect(entry?.notifications.map(({ event, status }) => [event, status])).toEqual([
      ["payment.succeeded", 200],
    ]);
  });

  test("the same order opened again as it was is the same payment; a paid one is not opened again", async () => {
    const customer = await signIn(app, "yk-again@example.com", { period: 1 });
    const { options, started } = await yooKassaOrder(app, context, customer);
    const again = await startProviderPayment(
      context,
      options.invoiceId,
      "yookassa",
      { method: "card", saveMethod: true },
      { returnUrl },
    );
    expect(paymentIdOf(again)).toBe(paymentIdOf(started));
    expect(await yooKassaLedger(app, options.accountId)).toHaveLength(1);
    await payAtCheckout(app, paymentIdOf(started), "4242 4242 4242 4242");
    await expect(
      startProviderPayment(
        context,
        options.invoiceId,
        "yookassa",
        { method: "card", saveMethod: true },
        { returnUrl },
      ),
    ).rejects.toMatchObject({ code: "purchase_already_paid" });
  });

  test("a declining card: the payment is canceled (insufficient_funds), the order declined, nothing starts", async () => {
    const customer = await signIn(app, "yk-declined@example.com", { period: 1 });
    const { options, started } = await yooKassaOrder(app, context, customer);
    const paid = await payAtCheckout(app, paymentIdOf(started), "4012 8888 8888 1881");
    expect(paid).toMatchObject({ success: false, status: "canceled", message: "insufficient_funds" });
    expect(await paymentRowsOf(context, options.accountId)).toMatchObject([
      { status: "declined", decline_reason: "insufficient_funds", decline_reason_code: 5051 },
    ]);
    expect((await profileOf(app, customer)).userInfo.subscriptionStatus).not.toBe("ACTIVE");
  });

  test("a card that had its trial is refused it at Pay (YooKassa has no Check) and refunded at once", async () => {
    const first = await signIn(app, "yk-trial-1@example.com", { period: 1 });
    const firstOrder = await yooKassaOrder(app, context, first);
    await payAtCheckout(app, paymentIdOf(firstOrder.started), "4242 4242 4242 4242", "03/31");
    const second = await signIn(app, "yk-trial-2@example.com", { period: 1 });
    const { options, started } = await yooKassaOrder(app, context, second);
    await payAtCheckout(app, paymentIdOf(started), "4242 4242 4242 4242", "03/31");
    expect(await orderStatus(options.invoiceId)).toMatchObject({ trialRefused: "card" });
    expect((await profileOf(app, second)).userInfo.subscriptionStatus).not.toBe("ACTIVE");
    const [entry] = await yooKassaLedger(app, options.accountId);
    expect(entry?.refunds.map(({ amount }) => amount)).toEqual([options.amount]);
    expect(entry?.refunds[0]?.receipt).toMatchObject({ customer: { email: second.email } });
  });
});

describe("by SBP, paid on the demo bank page", () => {
  test("the QR opens /dev-sbp; paid with autopay, the subscription starts with SBP saved at YooKassa", async () => {
    const customer = await signIn(app, "yk-sbp@example.com", { period: 1 });
    const { options, started } = await yooKassaOrder(app, context, customer, {
      method: "sbp",
      saveMethod: true,
    });
    if (!("sbp" in started)) throw new Error("no QR");
    const qrUrl = new URL(started.sbp.qrUrl);
    expect(qrUrl.pathname).toBe("/dev-sbp");
    expect(started.sbp.qrImage).toMatch(/^[A-Za-z0-9+/]+=*$/);
    const qr = qrUrl.searchParams.get("qr") ?? "";
    expect(await dataOf(api.dev.sandbox.sbp.qr.get({ query: { qr } }))).toMatchObject({
      qr,
      merchant: "Kannt",
      amount: options.amount,
      currency: "RUB",
      asksAutopay: true,
      state: "created",
      isExpired: false,
    });
    const [pending] = await paymentRowsOf(context, options.accountId);
    expect(pending).toMatchObject({ status: "pending", provider: "yookassa", method: "sbp" });
    expect(pending?.qr_expires_at).toBe(Date.parse(started.sbp.expiresAt));

    const paid = await dataOf(api.dev.sandbox.sbp.pay.post({ qr, account: "ok" }));
    expect(paid).toMatchObject({ success: true, transactionId: expect.any(String) });
    expect(await orderStatus(options.invoiceId)).toEqual({ status: "completed" });
    expect(await subscriptionRowOf(context, options.accountId)).toMatchObject({
      status: "ACTIVE",
      saved_provider: "yookassa",
      saved_method: "sbp",
      card_token: String(paid.transactionId),
    });
    // A YooKassa payment is paid once: paying the QR again is refused with nothing booked.
    expect(await dataOf(api.dev.sandbox.sbp.pay.post({ qr }))).toMatchObject({ success: false });
    expect(await yooKassaLedger(app, options.accountId)).toHaveLength(1);
  });

  test("declined in the bank app: the order says so", async () => {
    const customer = await signIn(app, "yk-sbp-declined@example.com", { period: 1 });
    const { options, started } = await yooKassaOrder(app, context, customer, {
      method: "sbp",
      saveMethod: false,
    });
    if (!("sbp" in started)) throw new Error("no QR");
    const qr = new URL(started.sbp.qrUrl).searchParams.get("qr") ?? "";
    expect(await dataOf(api.dev.sandbox.sbp.pay.post({ qr, outcome: "decline" }))).toMatchObject({
      success: false,
    });
    expect(await orderStatus(options.invoiceId)).toMatchObject({ status: "declined" });
  });

  test("SBP takes roubles only: a tenge order is refused as unavailable", async () => {
    // A customer's currency is set at registration, by the language of the request.
    const customer = await signIn(app, "yk-kzt@example.com", {
      period: 1,
      headers: { "accept-language": "kk" },
    });
    const options = await dataOf(
      api.shop.order.post(
        { uid: customer.uid, email: customer.email, tariff: 1, period: 1 },
        { headers: { cookie: customer.cookie } },
      ),
    );
    expect(options.currency).toBe("KZT");
    await expect(
      startProviderPayment(
        context,
        options.invoiceId,
        "yookassa",
        { method: "sbp", saveMethod: false },
        { returnUrl },
      ),
    ).rejects.toMatchObject({ code: "payment_method_unavailable" });
  });
});
