import { describe, expect, test } from "vitest";
import { providerOf } from "../../../bff/modules/payments/providers/provider-of";
import { receiptOf } from "../../../bff/modules/payments/receipts/receipt";
import { makeTestApp } from "../../helpers/app";
import { refundDesk } from "../../helpers/refunds";
import {
  paymentRowsOf,
  profileOf,
  subscriptionRowOf,
  yooKassaCardCustomer,
  yooKassaLedger,
} from "../../helpers/yookassa";

// DESIGN §6 and §13: a refund goes back through the provider that took the payment. At
// YooKassa that is POST /v3/refunds with the refund's own receipt (54-FZ), under a key made
// from the payment and amount, so a retry after a lost answer is the same refund.

const { app, context } = await makeTestApp();
const desk = await refundDesk(app, context);

describe("an operator refunds a YooKassa payment from the panel", () => {
  test("it goes back through YooKassa with its receipt; access ends; a second refund is refused", async () => {
    const customer = await yooKassaCardCustomer(app, context, "yk-refund@example.com");
    const [paid] = await paymentRowsOf(context, customer.accountId);
    // The preview and the answer name the provider each payment goes back through.
    const preview = await desk.preview({ email: customer.email, uid: customer.uid });
    expect(preview.payments).toEqual([
      {
        transactionId: customer.paymentId,
        amount: (paid?.amount ?? 0) / 100,
        kind: "first",
        dateTime: expect.any(String),
        provider: "yookassa",
      },
    ]);
    const answer = await desk.refund({ email: customer.email, uid: customer.uid });
    expect(answer).toMatchObject({
      Success: true,
      payments: [
        { transactionId: customer.paymentId, amount: (paid?.amount ?? 0) / 100, provider: "yookassa" },
      ],
    });
    expect(await paymentRowsOf(context, customer.accountId)).toMatchObject([
      { status: "refunded", refunded_amount: paid?.amount },
    ]);
    expect(await subscriptionRowOf(context, customer.accountId)).toMatchObject({ status: "EXPIRED" });
    expect((await profileOf(app, customer)).userInfo.subscriptionStatus).toBe("EXPIRED");

    const [entry] = await yooKassaLedger(app, customer.accountId);
    expect(entry?.refundedAmount).toBe((paid?.amount ?? 0) / 100);
    expect(entry?.refunds).toMatchObject([
      {
        amount: (paid?.amount ?? 0) / 100,
        receipt: {
          customer: { email: customer.email },
          items: [
            {
              amount: { value: ((paid?.amount ?? 0) / 100).toFixed(2), currency: "RUB" },
              quantity: "1.00",
              payment_subject: "service",
              payment_mode: "full_payment",
            },
          ],
        },
        notifications: [{ event: "refund.succeeded", status: 200 }],
      },
    ]);
    expect((await desk.refund({ email: customer.email, uid: customer.uid })).Success).toBe(false);
  });
});

describe("refund through the provider", () => {
  test("the same refund sent again (a lost answer, a retry) is one refund at YooKassa", async () => {
    const customer = await yooKassaCardCustomer(app, context, "yk-refund-twice@example.com");
    const [paid] = await paymentRowsOf(context, customer.accountId);
    if (!paid) throw new Error("no payment");
    const yooKassa = providerOf(context.payments, "yookassa");
    const receipt = await receiptOf(context, paid);
    const refunded = { isRefunded: true, isSettled: true, refundTransactionId: expect.any(String) };
    const made = { transactionId: customer.paymentId, method: "card" } as const;
    const first = await yooKassa.refund(made, paid.amount, receipt);
    expect(first).toEqual(refunded);
    expect(await yooKassa.refund(made, paid.amount, receipt)).toEqual(first);
    const [entry] = await yooKassaLedger(app, customer.accountId);
    expect(entry?.refunds).toHaveLength(1);
  });

  test("more than is left, or a payment YooKassa does not have: refused with its words", async () => {
    const customer = await yooKassaCardCustomer(app, context, "yk-refund-more@example.com");
    const [paid] = await paymentRowsOf(context, customer.accountId);
    if (!paid) throw new Error("no payment");
    const yooKassa = providerOf(context.payments, "yookassa");
    const receipt = await receiptOf(context, paid, paid.amount + 100);
    expect(
      await yooKassa.refund(
        { transactionId: customer.paymentId, method: "card" },
        paid.amount + 100,
        receipt,
      ),
    ).toEqual({
      isRefunded: false,
      reason: expect.stringContaining("more than is left"),
    });
    expect(
      await yooKassa.refund(
        { transactionId: "00000000-000f-5000-9000-000000000000", method: "card" },
        100,
        receipt,
      ),
    ).toEqual({
      isRefunded: false,
      reason: expect.any(String),
    });
    expect((await yooKassaLedger(app, customer.accountId))[0]?.refunds).toEqual([]);
  });
});
