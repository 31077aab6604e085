import { describe, expect, test } from "vitest";
import { startProviderPayment } from "../../../bff/modules/payments/orders/provider-order";
import { apiOf, dataOf } from "../../helpers/api";
import { makeTestApp, request } from "../../helpers/app";
import { signIn } from "../../helpers/customers";
import {
  armFault,
  notifyAsYooKassa,
  payAtCheckout,
  paymentIdOf,
  paymentRowsOf,
  profileOf,
  rawCall,
  shopOf,
  subscriptionRowOf,
  yooKassaCardCustomer,
  yooKassaLedger,
  yooKassaOrder,
} from "../../helpers/yookassa";

// DESIGN §6: YooKassa's notifications are not signed, so one only names an object to look
// up; the product acts when GET /v3/payments/{id} (or /v3/refunds/{id}) agrees with the
// event, and then through the same settlement as CloudPayments' Pay, Fail and Refund:
// once per payment (or refund) id, whatever comes twice or out of order. A notification
// its API does not confirm changes nothing and is answered 200, so YooKassa does not send
// it again; one that cannot be checked (YooKassa unreachable) is answered 503, so it does.

const { app, context } = await makeTestApp();
const api = apiOf(app);
const byCard = { method: "card", saveMethod: false } as const;

const mailsTo = async (email: string) => dataOf(api.dev.mail.get({ query: { to: email } }));
const eventsOf = (invoiceId: string) =>
  context.database.all<{ kind: string; transaction_id: string }>(
    "SELECT kind, transaction_id FROM webhook_events WHERE invoice_id = ? ORDER BY kind",
    [invoiceId],
  );

/** An order opened at YooKassa and not paid. */
async function pendingOrder(email: string) {
  const customer = await signIn(app, email, { period: 1 });
  const { options, started } = await yooKassaOrder(app, context, customer);
  return { customer, options, paymentId: paymentIdOf(started) };
}

describe("delivered again, or out of order", () => {
  test("a payment.succeeded delivered again is applied once: one payment, one period, one mail", async () => {
    const customer = await yooKassaCardCustomer(app, context, "yk-twice-notified@example.com");
    const rows = await paymentRowsOf(context, customer.accountId);
    const subscription = await subscriptionRowOf(context, customer.accountId);
    const mails = await mailsTo(customer.email);
    for (let delivery = 0; delivery < 3; delivery++)
      expect(await notifyAsYooKassa(app, "payment.succeeded", { id: customer.paymentId })).toEqual({
        status: 200,
        body: { result: "applied" },
      });
    expect(await paymentRowsOf(context, customer.accountId)).toEqual(rows);
    expect(await subscriptionRowOf(context, customer.accountId)).toEqual(subscription);
    expect(await mailsTo(customer.email)).toEqual(mails);
    expect(await eventsOf(customer.invoiceId)).toEqual([{ kind: "pay", transaction_id: customer.paymentId }]);
  });

  test("YooKassa unreachable while checking: 503 on every send; a refund then comes first and applies the payment before itself", async () => {
    const { customer, options, paymentId } = await pendingOrder("yk-unreachable@example.com");
    // Every look-up our endpoint makes fails, for all the sandbox's sends of payment.succeeded.
    await armFault(app, { kind: "error", count: 15, isWorkDone: false, method: "GET" });
    expect(await payAtCheckout(app, paymentId, "4242 4242 4242 4242")).toMatchObject({ success: true });
    await dataOf(api.dev.sandbox.yookassa.faults.delete());
    const [entry] = await yooKassaLedger(app, options.accountId);
    expect(entry?.notifications.map(({ status }) => status)).toEqual([503, 503, 503, 503, 503]);
    expect((await paymentRowsOf(context, options.accountId)).map((row) => row.status)).toEqual(["pending"]);

    // The refund's notification is the first YooKassa gets through: the payment is settled
    // from the look-up, then the refund, which ends the access the payment bought.
    const refund = await rawCall(app, shopOf(context), "POST", "/v3/refunds", {
      body: { payment_id: paymentId, amount: { value: options.amount.toFixed(2), currency: "RUB" } },
      key: crypto.randomUUID(),
    });
    expect(refund.status).toBe(200);
    const [row] = await paymentRowsOf(context, options.accountId);
    expect(row).toMatchObject({
      status: "refunded",
      transaction_id: paymentId,
      refunded_amount: options.amount * 100,
    });
    expect((await profileOf(app, customer)).userInfo.subscriptionStatus).not.toBe("ACTIVE");
    // The late payment.succeeded, and the refund's again, change nothing more.
    expect((await notifyAsYooKassa(app, "payment.succeeded", { id: paymentId })).body).toEqual({
      result: "applied",
    });
    expect((await notifyAsYooKassa(app, "refund.succeeded", { id: String(refund.body.id) })).body).toEqual({
      result: "applied",
    });
    expect(await paymentRowsOf(context, options.accountId)).toMatchObject([
      { status: "refunded", refunded_amount: options.amount * 100 },
    ]);
    expect((await eventsOf(options.invoiceId)).map(({ kind }) => kind)).toEqual(["pay", "refund"]);
  });
});

describe("what YooKassa's API does not confirm changes nothing", () => {
  test("an object YooKassa does not know, dressed as our order's payment", async () => {
    const { customer, options } = await pendingOrder("yk-forged@example.com");
    const forged = {
      id: "2d6b7b2f-000f-5000-9000-000000000001",
      status: "succeeded",
      paid: true,
      amount: { value: options.amount.toFixed(2), currency: "RUB" },
      payment_method: { type: "bank_card", id: "forged", saved: true },
      metadata: { invoice_id: options.invoiceId, account_id: options.accountId },
    };
    expect(await notifyAsYooKassa(app, "payment.succeeded", forged)).toEqual({
      status: 200,
      body: { result: "unverified" },
    });
    expect(
      await notifyAsYooKassa(app, "refund.succeeded", { id: "no-such-refund", payment_id: forged.id }),
    ).toEqual({
      status: 200,
      body: { result: "unverified" },
    });
    expect(await paymentRowsOf(context, options.accountId)).toMatchObject([
      { status: "pending", transaction_id: null },
    ]);
    expect((await profileOf(app, customer)).userInfo.subscriptionStatus).not.toBe("ACTIVE");
    expect(await eventsOf(options.invoiceId)).toEqual([]);
  });

  test("a real payment whose status the look-up contradicts: succeeded while pending, canceled once paid", async () => {
    const { options, paymentId } = await pendingOrder("yk-contradicted@example.com");
    expect(
      (await notifyAsYooKassa(app, "payment.succeeded", { id: paymentId, status: "succeeded" })).body,
    ).toEqual({
      result: "unverified",
    });
    expect((await paymentRowsOf(context, options.accountId)).map((row) => row.status)).toEqual(["pending"]);

    const paid = await yooKassaCardCustomer(app, context, "yk-contradicted-paid@example.com");
    const before = await paymentRowsOf(context, paid.accountId);
    expect(
      (await notifyAsYooKassa(app, "payment.canceled", { id: paid.paymentId, status: "canceled" })).body,
    ).toEqual({
      result: "unverified",
    });
    // A refund id that is really a payment's: no such refund.
    expect((await notifyAsYooKassa(app, "refund.succeeded", { id: paid.paymentId })).body).toEqual({
      result: "unverified",
    });
    expect(await paymentRowsOf(context, paid.accountId)).toEqual(before);
    expect(await subscriptionRowOf(context, paid.accountId)).toMatchObject({ status: "ACTIVE" });
  });

  test("events not acted on are answered and ignored; a body that is no notification is refused", async () => {
    const { paymentId } = await pendingOrder("yk-other-event@example.com");
    expect(await notifyAsYooKassa(app, "payment.waiting_for_capture", { id: paymentId })).toEqual({
      status: 200,
      body: { result: "ignored" },
    });
    for (const body of [
      "{",
      "null",
      '{"type":"notification","event":"payment.succeeded"}',
      '{"event":"x","object":{"id":"y"}}',
    ]) {
      const response = await app.handle(
        request("/api/payments/yookassa/notification", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body,
        }),
      );
      expect(response.status, body).toBe(400);
      expect(await response.json()).toMatchObject({ error: { code: "notification_unreadable" } });
    }
  });
});

describe("money that buys nothing goes back", () => {
  test("an order changed after its payment was opened: that payment, paid after all, is refunded at once", async () => {
    // An anonymous purchase keeps its one order while the buyer changes the plan.
    const prepaidToken = `prepaid-${crypto.randomUUID()}`;
    const orderOf = async (fullPrice: boolean) =>
      dataOf(api.shop.order.post({ prepaidToken, tariff: 1, period: 1, fullPrice }));
    const page = { returnUrl: "http://localhost:3000/instantPay", receiptEmail: "buyer@example.com" };
    const trialOrder = await orderOf(false);
    const trial = await startProviderPayment(context, trialOrder.invoiceId, "yookassa", byCard, page);
    const fullOrder = await orderOf(true);
    expect(fullOrder.invoiceId).toBe(trialOrder.invoiceId);
    expect(fullOrder.amount).toBeGreaterThan(trialOrder.amount);
    const full = await startProviderPayment(context, fullOrder.invoiceId, "yookassa", byCard, page);
    expect(paymentIdOf(full)).not.toBe(paymentIdOf(trial));

    // The first page, left open, is paid after all: it is not the order now, so it goes back.
    await payAtCheckout(app, paymentIdOf(trial), "4242 4242 4242 4242");
    expect(await paymentRowsOf(context, prepaidToken)).toMatchObject([{ status: "pending" }]);
    await payAtCheckout(app, paymentIdOf(full), "5555 5555 5555 4444");
    expect(await paymentRowsOf(context, prepaidToken)).toMatchObject([
      { status: "completed", transaction_id: paymentIdOf(full), amount: fullOrder.amount * 100 },
    ]);
    const byId = new Map((await yooKassaLedger(app, prepaidToken)).map((entry) => [entry.id, entry]));
    expect(byId.get(paymentIdOf(trial))).toMatchObject({
      status: "succeeded",
      refundedAmount: trialOrder.amount,
    });
    expect(byId.get(paymentIdOf(full))).toMatchObject({ status: "succeeded", refundedAmount: 0 });
    // The refund's receipt went to the buyer's e-mail the order was opened with.
    expect(byId.get(paymentIdOf(trial))?.refunds[0]?.receipt).toMatchObject({
      customer: { email: page.receiptEmail },
    });
  });
});
