import { createHmac } from "node:crypto";
import { describe, expect, test } from "vitest";
import { apiOf, dataOf, identityOf, sessionOf } from "../../../helpers/api";
import { makeTestApp, request } from "../../../helpers/app";
import { type SignedIn, signIn } from "../../../helpers/customers";
import { cards, notifyAsGateway, order, payWithCard } from "../../../helpers/payments";

const { app, context } = await makeTestApp();
const api = apiOf(app);
const secret = context.config.cloudPaymentsApiSecret;
const hmac = (body: string | Uint8Array) => createHmac("sha256", secret).update(body).digest("base64");

function post(kind: string, body: string | Uint8Array<ArrayBuffer>, headers: Record<string, string>) {
  return app.handle(request(`/api/payments/cloudpayments/${kind}`, { method: "POST", headers, body }));
}

const form = (fields: Record<string, string | number>) =>
  new URLSearchParams(Object.entries(fields).map(([name, value]) => [name, String(value)])).toString();

/** A refund notification signed as the gateway signs it; answers its code. */
const signedRefund = async (fields: Record<string, string | number>) =>
  (await notifyAsGateway(app, secret, "refund", fields)).code;

const codeOf = async (response: Response) => ((await response.json()) as { code: number }).code;

const statusOf = async (customer: SignedIn) =>
  (await dataOf(api.profile.post(identityOf(customer), sessionOf(customer)))).userInfo;

const paymentRow = (invoiceId: string) =>
  context.database.get<{
    status: string;
    amount: number;
    refunded_amount: number;
    transaction_id: string | null;
  }>("SELECT status, amount, refunded_amount, transaction_id FROM payments WHERE invoice_id = ?", [
    invoiceId,
  ]);

async function paidCustomer(email: string) {
  const customer = await signIn(app, email);
  const options = await order(app, customer);
  const paid = await payWithCard(app, options.invoiceId, cards.success);
  expect(paid.success).toBe(true);
  return { customer, options, transactionId: String(paid.transactionId) };
}

let refundNumber = 90_000_000;
const refundFields = (
  options: { invoiceId: string; accountId: string },
  paymentTransactionId: string,
  amount: string,
) => ({
  TransactionId: ++refundNumber,
  PaymentTransactionId: paymentTransactionId,
  Amount: amount,
  Currency: "RUB",
  InvoiceId: options.invoiceId,
  AccountId: options.accountId,
  OperationType: "Refund",
});

describe("signatures are checked over the bytes received", () => {
  test("a form body signed only with X-Content-HMAC over its decoded form is refused and changes nothing", async () => {
    const customer = await signIn(app, "decoded-form@example.com");
    const options = await order(app, customer);
    const fields = {
      TransactionId: 81_000_001,
      Amount: "1.00",
      Currency: "RUB",
      InvoiceId: options.invoiceId,
      AccountId: options.accountId,
    };
    // A genuine gateway body whose Description holds an encoded "&Token=…": its decoded
    // form reads the same whether the "&" was encoded or not, so a signature over the
    // decoded form would also cover a re-sent body where that text became a field.
    const genuine = `${form(fields)}&Description=tea%26Token%3Dtk_injected`;
    const injected = `${form(fields)}&Description=tea&Token=tk_injected`;
    const overDecoded = hmac(decodeURIComponent(genuine.replace(/\+/g, " ")));
    expect(overDecoded).toBe(hmac(decodeURIComponent(injected.replace(/\+/g, " "))));
    for (const body of [genuine, injected]) {
      const response = await post("pay", body, {
        "content-type": "application/x-www-form-urlencoded",
        "x-content-hmac": overDecoded,
      });
      expect(response.status).toBe(401);
    }
    expect((await paymentRow(options.invoiceId))?.status).toBe("pending");
    expect((await statusOf(customer)).subscriptionStatus).toBe("NOT_ACTIVE");
  });

  test("a JSON body signed only with X-Content-HMAC over its raw bytes is accepted", async () => {
    const customer = await signIn(app, "json-x-hmac@example.com");
    const options = await order(app, customer);
    const body = JSON.stringify({
      TransactionId: 81_000_002,
      Amount: "1.00",
      Currency: "RUB",
      InvoiceId: options.invoiceId,
      AccountId: options.accountId,
      Status: "Completed",
    });
    const response = await post("pay", body, {
      "content-type": "application/json",
      "x-content-hmac": hmac(body),
    });
    expect(response.status).toBe(200);
    expect(await codeOf(response)).toBe(0);
    expect((await paymentRow(options.invoiceId))?.status).toBe("completed");
  });

  test("a wrong Content-HMAC is refused even beside a right X-Content-HMAC", async () => {
    const customer = await signIn(app, "wrong-content-hmac@example.com");
    const options = await order(app, customer);
    const fields = {
      TransactionId: 81_000_003,
      Amount: "1.00",
      Currency: "RUB",
      InvoiceId: options.invoiceId,
      AccountId: options.accountId,
    };
    const json = JSON.stringify(fields);
    const formBody = form(fields);
    for (const [contentType, body] of [
      ["application/json", json],
      ["application/x-www-form-urlencoded", formBody],
    ] as const) {
      for (const wrong of ["", "forged", hmac(`${body} `)]) {
        const response = await post("pay", body, {
          "content-type": contentType,
          "content-hmac": wrong,
          "x-content-hmac": hmac(body),
        });
        expect(response.status).toBe(401);
      }
    }
    expect((await paymentRow(options.invoiceId))?.status).toBe("pending");
  });

  test("a signature over a re-encoded text of the body is refused", async () => {
    const raw = new Uint8Array([
      ...Buffer.from('{"TransactionId":1,"Amount":"1.00","Name":"'),
      0xff,
      ...Buffer.from('"}'),
    ]);
    const overText = hmac(new TextDecoder().decode(raw));
    const response = await post("pay", raw, { "content-type": "application/json", "content-hmac": overText });
    expect(response.status).toBe(401);
  });

  test.each([
    ["null", "null"],
    ["an array", "[]"],
    ["an array of fields", '[{"TransactionId":1,"Amount":"1.00"}]'],
    ["a number", "42"],
    ["a string", '"TransactionId"'],
    ["fields that are objects", '{"TransactionId":{"a":1},"Amount":["1.00"]}'],
  ])("a signed JSON body that is %s is a 400, never a 5xx", async (_, body) => {
    for (const kind of ["check", "pay", "fail", "refund"]) {
      const response = await post(kind, body, {
        "content-type": "application/json",
        "content-hmac": hmac(body),
      });
      expect(response.status).toBe(400);
    }
  });
});

describe("refund notifications", () => {
  test("are applied only up to the payment's amount", async () => {
    const { options, transactionId } = await paidCustomer("refund-cap@example.com");
    expect(await signedRefund(refundFields(options, transactionId, "500.00"))).toBe(0);
    expect(await paymentRow(options.invoiceId)).toMatchObject({
      status: "refunded",
      amount: 100,
      refunded_amount: 100,
    });
  });

  test("one that arrives before its payment is answered non-zero, and applied when delivered again after it", async () => {
    const customer = await signIn(app, "refund-early@example.com");
    const options = await order(app, customer);
    const early = refundFields(options, "88000001", "1.00");
    expect(await signedRefund(early)).not.toBe(0);
    expect((await paymentRow(options.invoiceId))?.status).toBe("pending");

    const paid = await payWithCard(app, options.invoiceId, cards.success);
    expect((await statusOf(customer)).subscriptionStatus).toBe("ACTIVE");
    // The gateway delivers the same refund again, now naming the payment it knows.
    const again = { ...early, PaymentTransactionId: String(paid.transactionId) };
    expect(await signedRefund(again)).toBe(0);
    expect((await paymentRow(options.invoiceId))?.status).toBe("refunded");
    expect((await statusOf(customer)).subscriptionStatus).toBe("EXPIRED");
    // And once more: applied once only.
    expect(await signedRefund(again)).toBe(0);
    expect((await paymentRow(options.invoiceId))?.refunded_amount).toBe(100);
  });

  test("a gateway-side refund of the payment that bought the current period ends access", async () => {
    const { customer, options, transactionId } = await paidCustomer("refund-gateway@example.com");
    expect(await statusOf(customer)).toMatchObject({
      subscriptionStatus: "ACTIVE",
      subscriptionIsActive: true,
    });
    expect(await signedRefund(refundFields(options, transactionId, "1.00"))).toBe(0);
    expect(await statusOf(customer)).toMatchObject({
      subscriptionStatus: "EXPIRED",
      subscriptionIsActive: false,
    });
  });

  test("a partial refund keeps access and counts toward the payment", async () => {
    const { customer, options, transactionId } = await paidCustomer("refund-partial@example.com");
    expect(await signedRefund(refundFields(options, transactionId, "0.40"))).toBe(0);
    expect(await paymentRow(options.invoiceId)).toMatchObject({ status: "completed", refunded_amount: 40 });
    expect((await statusOf(customer)).subscriptionStatus).toBe("ACTIVE");
    expect(await signedRefund(refundFields(options, transactionId, "0.60"))).toBe(0);
    expect(await paymentRow(options.invoiceId)).toMatchObject({ status: "refunded", refunded_amount: 100 });
    expect((await statusOf(customer)).subscriptionStatus).toBe("EXPIRED");
  });
});
