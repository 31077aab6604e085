import { createHmac } from "node:crypto";
import { describe, expect, test } from "vitest";
import { apiOf, dataOf, identityOf, refusalOf, sessionOf } from "../../../helpers/api";
import { makeTestApp, request } from "../../../helpers/app";
import { type SignedIn, signIn } from "../../../helpers/customers";
import { cards, ledger, notifyAsGateway, order, payWithCard } from "../../../helpers/payments";

const { app, context } = await makeTestApp();
const secret = context.config.cloudPaymentsApiSecret;
const api = apiOf(app);

type Fields = Record<string, string | number>;

/** A notification as the gateway sends it, answering its code. */
const notification = async (kind: "check" | "pay" | "fail" | "refund", fields: Fields) =>
  (await notifyAsGateway(app, secret, kind, fields)).code;

/**
 * A notification signed otherwise than the gateway's usual form: with no signature, with
 * X-Content-HMAC over the decoded body, or as JSON. Raw, as the signature is what is tested.
 */
function unusualNotification(
  kind: string,
  fields: Fields,
  options: { header: "content" | "x" | "none"; json?: boolean },
) {
  const body = options.json
    ? JSON.stringify(fields)
    : new URLSearchParams(Object.entries(fields).map(([key, value]) => [key, String(value)])).toString();
  const headers: Record<string, string> = {
    "content-type": options.json ? "application/json" : "application/x-www-form-urlencoded",
  };
  const hmac = (signed: string) => createHmac("sha256", secret).update(signed).digest("base64");
  // The gateway signs X-Content-HMAC over the decoded body: a JSON body is its own decoded form.
  if (options.header === "x")
    headers["x-content-hmac"] = hmac(options.json ? body : decodeURIComponent(body.replace(/\+/g, " ")));
  if (options.header === "content") headers["content-hmac"] = hmac(body);
  return app.handle(request(`/api/payments/cloudpayments/${kind}`, { method: "POST", headers, body }));
}

const code = async (response: Response) => ((await response.json()) as { code: number }).code;

async function pendingOrder(email: string) {
  const customer = await signIn(app, email);
  const options = await order(app, customer, 1, 30);
  const fields: Fields = {
    TransactionId: 7_000_000 + Math.floor(Math.random() * 1_000_000),
    Amount: "1.00",
    Currency: "RUB",
    InvoiceId: options.invoiceId,
    AccountId: options.accountId,
    Token: "tk_test_token",
    CardLastFour: "4242",
    Status: "Completed",
  };
  return { customer, options, fields };
}

const statusOf = async (customer: SignedIn) =>
  (await dataOf(api.profile.post(identityOf(customer), sessionOf(customer)))).userInfo;

const paymentOf = (invoiceId: string) =>
  context.database.get<{ status: string; transaction_id: string | null }>(
    "SELECT status, transaction_id FROM payments WHERE invoice_id = ?",
    [invoiceId],
  );

describe("notification signatures", () => {
  test("a forged signature is rejected and changes nothing", async () => {
    const { customer, options, fields } = await pendingOrder("forged-pay@example.com");
    const answer = await notifyAsGateway(app, "not-the-api-secret-at-all-0000000000", "pay", fields);
    expect(answer.status).toBe(401);
    expect((await paymentOf(options.invoiceId))?.status).toBe("pending");
    expect((await statusOf(customer)).subscriptionStatus).toBe("NOT_ACTIVE");
  });

  test("a missing signature is rejected and changes nothing", async () => {
    const { customer, options, fields } = await pendingOrder("unsigned-pay@example.com");
    expect((await unusualNotification("pay", fields, { header: "none" })).status).toBe(401);
    expect((await unusualNotification("check", fields, { header: "none" })).status).toBe(401);
    expect((await paymentOf(options.invoiceId))?.status).toBe("pending");
    expect((await statusOf(customer)).subscriptionStatus).toBe("NOT_ACTIVE");
  });

  test("X-Content-HMAC alone is refused for a form body and accepted for a JSON body", async () => {
    const first = await pendingOrder("x-hmac@example.com");
    const response = await unusualNotification(
      "pay",
      { ...first.fields, Reason: "Approved: ok+fine" },
      { header: "x" },
    );
    expect(response.status).toBe(401);
    expect((await paymentOf(first.options.invoiceId))?.status).toBe("pending");
    const second = await pendingOrder("json-pay@example.com");
    expect(
      await code(await unusualNotification("pay", second.fields, { json: true, header: "content" })),
    ).toBe(0);
    expect((await statusOf(second.customer)).subscriptionStatus).toBe("ACTIVE");
    const third = await pendingOrder("json-x-pay@example.com");
    expect(await code(await unusualNotification("pay", third.fields, { json: true, header: "x" }))).toBe(0);
    expect((await statusOf(third.customer)).subscriptionStatus).toBe("ACTIVE");
  });
});

describe("Check", () => {
  test("answers 0 for our order and 10/11/12/13 when the invoice, account, amount or state do not match", async () => {
    const { fields } = await pendingOrder("check@example.com");
    expect(await notification("check", fields)).toBe(0);
    expect(await notification("check", { ...fields, InvoiceId: "first-no-such-invoice" })).toBe(10);
    expect(await notification("check", { ...fields, AccountId: "customer-999999" })).toBe(11);
    expect(await notification("check", { ...fields, Amount: "0.01" })).toBe(12);
    expect(await notification("check", { ...fields, Currency: "KZT" })).toBe(12);
    await notification("pay", fields);
    expect(await notification("check", { ...fields, TransactionId: 1 })).toBe(13);
  });

  test("a widget amount changed in the browser is refused with code 12 and nothing is charged", async () => {
    const { customer, options } = await pendingOrder("tampered@example.com");
    const result = await payWithCard(app, options.invoiceId, cards.success, 0.01);
    expect(result).toMatchObject({ success: false, checkCode: 12 });
    expect((await ledger(app, options.accountId)).filter((entry) => entry.status === "Completed")).toEqual(
      [],
    );
    expect((await statusOf(customer)).subscriptionStatus).toBe("NOT_ACTIVE");
  });
});

describe("idempotency", () => {
  test("the same Pay delivered twice credits once", async () => {
    const { customer, options, fields } = await pendingOrder("twice@example.com");
    expect(await notification("pay", fields)).toBe(0);
    const first = await statusOf(customer);
    context.clock.now(); // the second delivery comes later
    expect(await notification("pay", fields)).toBe(0);
    expect(await statusOf(customer)).toEqual(first);
    const events = await context.database.get<{ count: number }>(
      "SELECT COUNT(*) AS count FROM webhook_events WHERE invoice_id = ?",
      [options.invoiceId],
    );
    expect(events?.count).toBe(1);
  });

  test("a late Fail never undoes a Pay, and a Pay after a Fail completes the order once", async () => {
    const paidFirst = await pendingOrder("pay-then-fail@example.com");
    await notification("pay", paidFirst.fields);
    await notification("fail", {
      ...paidFirst.fields,
      TransactionId: Number(paidFirst.fields.TransactionId) + 1,
      Status: "Declined",
      ReasonCode: 5051,
    });
    expect((await paymentOf(paidFirst.options.invoiceId))?.status).toBe("completed");
    expect((await statusOf(paidFirst.customer)).subscriptionStatus).toBe("ACTIVE");

    const failedFirst = await pendingOrder("fail-then-pay@example.com");
    await notification("fail", {
      ...failedFirst.fields,
      TransactionId: Number(failedFirst.fields.TransactionId) + 1,
      Status: "Declined",
      ReasonCode: 5051,
    });
    await notification("pay", failedFirst.fields);
    await notification("pay", failedFirst.fields);
    expect(await paymentOf(failedFirst.options.invoiceId)).toEqual({
      status: "completed",
      transaction_id: String(failedFirst.fields.TransactionId),
    });
    expect((await statusOf(failedFirst.customer)).subscriptionStatus).toBe("ACTIVE");
  });

  test("a Pay whose amount differs from the order is not credited", async () => {
    const { customer, options, fields } = await pendingOrder("mismatch@example.com");
    expect(await notification("pay", { ...fields, Amount: "0.50" })).toBe(0);
    expect((await paymentOf(options.invoiceId))?.status).toBe("pending");
    expect((await statusOf(customer)).subscriptionStatus).toBe("NOT_ACTIVE");
  });
});

describe("the sandbox widget flow", () => {
  test("the success card activates the subscription for the trial days", async () => {
    const customer = await signIn(app, "widget-ok@example.com");
    const options = await order(app, customer, 1, 7);
    expect(options).toMatchObject({
      amount: 1,
      currency: "RUB",
      accountId: expect.stringMatching(/^customer-/),
    });
    expect(await payWithCard(app, options.invoiceId, cards.success)).toMatchObject({ success: true });
    const info = await statusOf(customer);
    expect(info.subscriptionStatus).toBe("ACTIVE");
    const days = (Date.parse(info.expirationDate ?? "") - context.clock.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
  });

  test("the declined card leaves the customer without a subscription and says why", async () => {
    const customer = await signIn(app, "widget-declined@example.com");
    const options = await order(app, customer);
    expect(await payWithCard(app, options.invoiceId, cards.declined)).toMatchObject({
      success: false,
      message: "InsufficientFunds",
    });
    expect((await statusOf(customer)).subscriptionStatus).toBe("NOT_ACTIVE");
    expect((await paymentOf(options.invoiceId))?.status).toBe("declined");
  });

  test("an order while a subscription is active is refused", async () => {
    const customer = await signIn(app, "already@example.com");
    await payWithCard(app, (await order(app, customer)).invoiceId, cards.success);
    const refusal = await refusalOf(
      api.shop.order.post({ ...identityOf(customer), tariff: 1, period: 30 }, sessionOf(customer)),
    );
    expect(refusal.status).toBe(409);
  });

  test("the sandbox refuses an amount it cannot book, as the gateway does, instead of failing", async () => {
    const customer = await signIn(app, "huge-amount@example.com");
    const options = await order(app, customer);
    expect(await payWithCard(app, options.invoiceId, cards.success, 1e308)).toEqual({
      success: false,
      message: "Amount must be a sum of money of 0 or more.",
    });
    expect((await paymentOf(options.invoiceId))?.status).toBe("pending");
  });

  test("an order's tariff and period are validated with clear messages", async () => {
    const customer = await signIn(app, "order-ranges@example.com");
    const refusal = await refusalOf(
      api.shop.order.post({ ...identityOf(customer), tariff: 2, period: 30 }, sessionOf(customer)),
    );
    expect(refusal.status).toBe(400);
    expect(refusal.message).toBe("tariff must be 1, 3, 6 or 12 months.");
  });
});

describe("an order", () => {
  test("takes a tariff and period written as text as the numbers they are; other text is a 400", async () => {
    const customer = await signIn(app, "order-as-text@example.com");
    // Text where the schema says numbers: sent as the JSON strings they are.
    const options = await dataOf(
      api.shop.order.post(
        { ...identityOf(customer), tariff: "3", period: "30" } as never,
        sessionOf(customer),
      ),
    );
    const asNumbers = await order(app, customer, 3, 30);
    expect({ amount: options.amount, data: options.data }).toEqual({
      amount: asNumbers.amount,
      data: asNumbers.data,
    });
    const wrong = await refusalOf(
      api.shop.order.post(
        { ...identityOf(customer), tariff: "three", period: "30" } as never,
        sessionOf(customer),
      ),
    );
    expect(wrong.status).toBe(400);
    expect(wrong.message).toContain("tariff");
  });
});

describe("a second first order", () => {
  test("opened in another tab before the first was paid is refused at Check once the first paid", async () => {
    const customer = await signIn(app, "two-tabs@example.com");
    const fullPrice = () =>
      dataOf(
        api.shop.order.post(
          { ...identityOf(customer), tariff: 1, period: 30, fullPrice: true },
          sessionOf(customer),
        ),
      );
    const first = await fullPrice();
    const second = await fullPrice();
    expect((await payWithCard(app, first.invoiceId, cards.success)).success).toBe(true);
    // The second would take 150 more for the same month: the gateway is told not to charge.
    expect(await payWithCard(app, second.invoiceId, cards.success)).toMatchObject({
      success: false,
      checkCode: 13,
    });
    const charged = (await ledger(app, first.accountId)).filter((entry) => entry.status === "Completed");
    expect(charged.map((entry) => entry.amount)).toEqual([first.amount]);
  });
});
