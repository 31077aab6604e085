import { describe, expect, test } from "vitest";
import {
  YooKassaBusyError,
  YooKassaRefusedError,
  YooKassaUnavailableError,
} from "../../../bff/adapters/yookassa/errors";
import type { NewYooKassaPayment } from "../../../bff/adapters/yookassa/types";
import { makeTestApp } from "../../helpers/app";
import { advanceDays } from "../../helpers/payments";
import {
  armFault,
  cardPayment,
  clientOn,
  payAtCheckout,
  rawCall,
  receiptOfAmount,
  shopOf,
  yooKassaLedger,
} from "../../helpers/yookassa";

// DESIGN §6: our own YooKassa API v3 client against the embedded sandbox, which speaks
// YooKassa's protocol: HTTP Basic with exactly the shop's pair, an Idempotence-Key on every
// POST honoured for 24 hours (on the app's clock), the same key with other data refused.

const { app, context, clock } = await makeTestApp();
const pair = shopOf(context);
const client = clientOn(app, pair);

let keys = 0;
const freshKey = (name: string) => `${name}-${++keys}-${Date.now()}`;

/** A card payment with our invoice in its metadata, so the ledger can be asked about it. */
function paymentFor(invoiceId: string, amount = "150.00"): NewYooKassaPayment {
  return cardPayment(amount, {
    invoice_id: invoiceId,
    account_id: `account-${invoiceId}`,
  }) as NewYooKassaPayment;
}

const paymentsOf = async (invoiceId: string) =>
  (await yooKassaLedger(app)).filter((entry) => entry.metadata.invoice_id === invoiceId);

describe("HTTP Basic: exactly the shop's pair", () => {
  test.each([
    ["a wrong secret key", { ...pair, secretKey: `${pair.secretKey}x` }],
    ["a wrong shop id", { ...pair, shopId: "999999" }],
    ["an empty secret key", { ...pair, secretKey: "" }],
  ])("%s is refused 401 invalid_credentials, nothing made", async (_, wrong) => {
    const invoiceId = freshKey("auth");
    const call = clientOn(app, wrong).createPayment(paymentFor(invoiceId), freshKey("k"));
    await expect(call).rejects.toBeInstanceOf(YooKassaRefusedError);
    await expect(call).rejects.toMatchObject({ status: 401, code: "invalid_credentials" });
    expect(await paymentsOf(invoiceId)).toEqual([]);
  });

  test("no Authorization header at all is refused the same way", async () => {
    const response = await app.handle(
      new Request("http://localhost/api/dev/sandbox/yookassa/v3/payments/anything", { method: "GET" }),
    );
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ type: "error", code: "invalid_credentials" });
  });
});

describe("Idempotence-Key", () => {
  test("a POST without one is refused 400, naming the header", async () => {
    const answer = await rawCall(app, pair, "POST", "/v3/payments", { body: paymentFor(freshKey("nokey")) });
    expect(answer).toMatchObject({
      status: 400,
      body: { type: "error", code: "invalid_request", parameter: "Idempotence-Key" },
    });
    const tooLong = await rawCall(app, pair, "POST", "/v3/payments", {
      body: paymentFor(freshKey("longkey")),
      key: "k".repeat(65),
    });
    expect(tooLong).toMatchObject({ status: 400, body: { parameter: "Idempotence-Key" } });
  });

  test("the same key and body within the day: the same payment, made once", async () => {
    const invoiceId = freshKey("same");
    const key = freshKey("k");
    const first = await client.createPayment(paymentFor(invoiceId), key);
    const second = await client.createPayment(paymentFor(invoiceId), key);
    expect(second.id).toBe(first.id);
    expect(first).toMatchObject({
      status: "pending",
      paid: false,
      amount: { value: "150.00", currency: "RUB" },
      confirmation: { type: "redirect", confirmation_url: expect.stringContaining("/checkout?orderId=") },
      metadata: { invoice_id: invoiceId },
    });
    expect(await paymentsOf(invoiceId)).toHaveLength(1);
  });

  test("a repeat answers the payment as it is now, not as it was", async () => {
    const invoiceId = freshKey("now");
    const key = freshKey("k");
    const created = await client.createPayment(paymentFor(invoiceId), key);
    await payAtCheckout(app, created.id, "4242 4242 4242 4242");
    expect(await client.createPayment(paymentFor(invoiceId), key)).toMatchObject({
      id: created.id,
      status: "succeeded",
      paid: true,
    });
  });

  test("the same key with another body is refused 400 and makes nothing", async () => {
    const invoiceId = freshKey("other");
    const key = freshKey("k");
    await client.createPayment(paymentFor(invoiceId), key);
    const call = client.createPayment(paymentFor(invoiceId, "151.00"), key);
    await expect(call).rejects.toMatchObject({ status: 400, code: "invalid_request" });
    // Nor is a key good for another path.
    const refund = await rawCall(app, pair, "POST", "/v3/refunds", {
      body: { payment_id: "x", amount: { value: "1.00", currency: "RUB" } },
      key,
    });
    expect(refund).toMatchObject({ status: 400, body: { parameter: "Idempotence-Key" } });
    expect(await paymentsOf(invoiceId)).toHaveLength(1);
  });

  test("a key is honoured 24 hours of the app's clock; after that it makes a new payment", async () => {
    const { app: own, context: ownContext } = await makeTestApp();
    const ownClient = clientOn(own, shopOf(ownContext));
    const invoiceId = freshKey("day");
    const key = freshKey("k");
    const first = await ownClient.createPayment(paymentFor(invoiceId), key);
    await advanceDays(own, 0.99);
    expect((await ownClient.createPayment(paymentFor(invoiceId), key)).id).toBe(first.id);
    await advanceDays(own, 0.02);
    const later = await ownClient.createPayment(paymentFor(invoiceId), key);
    expect(later.id).not.toBe(first.id);
    // And the new request owns the key for its own day: other data is refused again.
    await expect(ownClient.createPayment(paymentFor(invoiceId, "2.00"), key)).rejects.toMatchObject({
      status: 400,
    });
  });
});

describe("retries inside the call: the same request under the same key", () => {
  test("a 500 after YooKassa made the payment: sent again, one payment", async () => {
    const invoiceId = freshKey("lost500");
    await armFault(app, { kind: "error", count: 1, isWorkDone: true, method: "POST" });
    const payment = await client.createPayment(paymentFor(invoiceId), freshKey("k"));
    const made = await paymentsOf(invoiceId);
    expect(made.map((entry) => entry.id)).toEqual([payment.id]);
  });

  test("a 500 before anything was made: sent again, one payment", async () => {
    const invoiceId = freshKey("early500");
    await armFault(app, { kind: "error", count: 2, isWorkDone: false, method: "POST" });
    const payment = await client.createPayment(paymentFor(invoiceId), freshKey("k"));
    expect((await paymentsOf(invoiceId)).map((entry) => entry.id)).toEqual([payment.id]);
  });

  test("a timeout after the payment was made: given up, sent again, one payment", async () => {
    const invoiceId = freshKey("timeout");
    const quick = clientOn(app, pair, { attempts: 3, firstDelayMs: 10, timeoutMs: 300 });
    await armFault(app, { kind: "timeout", count: 1, isWorkDone: true, holdMs: 1500, method: "POST" });
    const startedAt = performance.now();
    const payment = await quick.createPayment(paymentFor(invoiceId), freshKey("k"));
    // Answered by the second send, long before the first would have been.
    expect(performance.now() - startedAt).toBeLessThan(1400);
    expect((await paymentsOf(invoiceId)).map((entry) => entry.id)).toEqual([payment.id]);
  });

  test("an outage on every try: unavailable (outcome unknown), nothing made", async () => {
    const invoiceId = freshKey("outage");
    await armFault(app, { kind: "error", count: 3, isWorkDone: false, method: "POST" });
    await expect(client.createPayment(paymentFor(invoiceId), freshKey("k"))).rejects.toBeInstanceOf(
      YooKassaUnavailableError,
    );
    expect(await paymentsOf(invoiceId)).toEqual([]);
  });

  test("a 429 ends the call at once as busy, nothing made, and is not retried inside it", async () => {
    const invoiceId = freshKey("busy");
    await armFault(app, { kind: "busy", count: 1, method: "POST" });
    await expect(client.createPayment(paymentFor(invoiceId), freshKey("k"))).rejects.toBeInstanceOf(
      YooKassaBusyError,
    );
    expect(await paymentsOf(invoiceId)).toEqual([]);
    // The fault is spent: the caller's own retry goes through.
    expect((await client.createPayment(paymentFor(invoiceId), freshKey("k"))).status).toBe("pending");
  });

  test("a GET rides out a 500 too; a payment YooKassa does not have is null", async () => {
    const payment = await client.createPayment(paymentFor(freshKey("get")), freshKey("k"));
    await armFault(app, { kind: "error", count: 1, isWorkDone: false, method: "GET" });
    expect((await client.getPayment(payment.id))?.id).toBe(payment.id);
    expect(await client.getPayment("00000000-000f-5000-9000-000000000000")).toBeNull();
    expect(await client.getRefund("00000000-0015-5000-8000-000000000000")).toBeNull();
  });
});

describe("the requests YooKassa checks", () => {
  test("a receipt whose items do not add up to the amount is refused 400, naming the receipt", async () => {
    const body = { ...paymentFor(freshKey("receipt")), receipt: receiptOfAmount("100.00") };
    await expect(client.createPayment(body, freshKey("k"))).rejects.toMatchObject({
      status: 400,
      code: "invalid_request",
      description: expect.stringContaining("add up"),
    });
  });

  test("a receipt without the customer's e-mail or phone is refused", async () => {
    const { customer: _, ...withoutCustomer } = receiptOfAmount("150.00");
    const body = { ...paymentFor(freshKey("nocustomer")), receipt: withoutCustomer } as NewYooKassaPayment;
    await expect(client.createPayment(body, freshKey("k"))).rejects.toMatchObject({ status: 400 });
  });

  test("the ledger keeps each payment's and refund's receipt as sent", async () => {
    const invoiceId = freshKey("kept");
    const payment = await client.createPayment(paymentFor(invoiceId), freshKey("k"));
    await payAtCheckout(app, payment.id, "4242 4242 4242 4242");
    const refund = await client.createRefund(
      {
        payment_id: payment.id,
        amount: { value: "50.00", currency: "RUB" },
        receipt: receiptOfAmount("50.00"),
      },
      freshKey("r"),
    );
    expect(refund).toMatchObject({ payment_id: payment.id, status: "succeeded", amount: { value: "50.00" } });
    const [entry] = await paymentsOf(invoiceId);
    expect(entry?.receipt).toEqual(receiptOfAmount("150.00"));
    expect(entry?.refunds.map((made) => made.receipt)).toEqual([receiptOfAmount("50.00")]);
    expect(entry?.refundedAmount).toBe(50);
    expect(await client.getRefund(refund.id)).toMatchObject({ id: refund.id, status: "succeeded" });
  });
});

describe("a YooKassa client of someone else's: plain HTTP, as any library sends it", () => {
  test("create, pay on the page, look up, refund and look up the refund, unchanged", async () => {
    const key = crypto.randomUUID();
    const body = {
      amount: { value: "990.00", currency: "RUB" },
      capture: true,
      description: "Order No. 72",
      confirmation: { type: "redirect", return_url: "https://www.example.com/return_url" },
      payment_method_data: { type: "bank_card" },
      receipt: receiptOfAmount("990.00", "user@example.com"),
      metadata: { order_id: "72" },
    };
    const created = await rawCall(app, pair, "POST", "/v3/payments", { body, key });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f]{8}-000f-5000-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      status: "pending",
      paid: false,
      test: true,
      amount: { value: "990.00", currency: "RUB" },
      recipient: { account_id: pair.shopId },
      confirmation: { type: "redirect", confirmation_url: expect.any(String) },
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      metadata: { order_id: "72" },
    });
    const id = String(created.body.id);
    // The confirmation URL is a page a person can open.
    const confirmationUrl = new URL(
      String((created.body.confirmation as { confirmation_url: string }).confirmation_url),
    );
    const page = await app.handle(
      new Request(`http://localhost${confirmationUrl.pathname}${confirmationUrl.search}`),
    );
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(await page.text()).toContain("990.00 RUB");
    // Its form: a person pays, and is sent back to the shop.
    const form = await app.handle(
      new Request("http://localhost/api/dev/sandbox/yookassa/checkout", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ orderId: id, cardNumber: "5555 5555 5555 4444", expiry: "" }).toString(),
      }),
    );
    expect(form.status).toBe(303);
    expect(form.headers.get("location")).toBe("https://www.example.com/return_url");
    const found = await rawCall(app, pair, "GET", `/v3/payments/${id}`);
    expect(found.body).toMatchObject({
      id,
      status: "succeeded",
      paid: true,
      refundable: true,
      payment_method: { type: "bank_card", saved: false, card: { first6: "555555", last4: "4444" } },
    });
    const refunded = await rawCall(app, pair, "POST", "/v3/refunds", {
      body: { payment_id: id, amount: { value: "990.00", currency: "RUB" } },
      key: crypto.randomUUID(),
    });
    expect(refunded).toMatchObject({ status: 200, body: { payment_id: id, status: "succeeded" } });
    const refund = await rawCall(app, pair, "GET", `/v3/refunds/${String(refunded.body.id)}`);
    expect(refund.body).toMatchObject({ status: "succeeded", amount: { value: "990.00", currency: "RUB" } });
    // A second refund of it all is more than is left.
    const again = await rawCall(app, pair, "POST", "/v3/refunds", {
      body: { payment_id: id, amount: { value: "1.00", currency: "RUB" } },
      key: crypto.randomUUID(),
    });
    expect(again).toMatchObject({ status: 400, body: { code: "invalid_request", parameter: "amount" } });
    const unknown = await rawCall(app, pair, "GET", "/v3/payments/no-such-payment");
    expect(unknown).toMatchObject({ status: 404, body: { type: "error", code: "not_found" } });
  });

  test("a malformed body gets YooKassa's error object, not ours", async () => {
    const response = await app.handle(
      new Request("http://localhost/api/dev/sandbox/yookassa/v3/payments", {
        method: "POST",
        headers: {
          authorization: `Basic ${Buffer.from(`${pair.shopId}:${pair.secretKey}`).toString("base64")}`,
          "content-type": "application/json",
          "idempotence-key": crypto.randomUUID(),
        },
        body: "{",
      }),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ type: "error", code: "invalid_request" });
  });
});

describe("the list of payments (GET /v3/payments)", () => {
  test("newest first within created_at's bounds, a page of `limit` with next_cursor while more follow", async () => {
    const from = new Date(context.clock.now()).toISOString();
    const invoices = [freshKey("list"), freshKey("list"), freshKey("list")];
    for (const invoiceId of invoices) {
      await client.createPayment(paymentFor(invoiceId), freshKey("k"));
      clock.advance(1_000);
    }
    const to = new Date(context.clock.now()).toISOString();
    const page = (query: string) => rawCall(app, pair, "GET", `/v3/payments?${query}`);
    const first = await page(`created_at.gte=${from}&created_at.lte=${to}&limit=2`);
    expect(first.status).toBe(200);
    const firstItems = first.body.items as { metadata: { invoice_id: string } }[];
    expect(first.body.type).toBe("list");
    expect(firstItems.map((item) => item.metadata.invoice_id)).toEqual([invoices[2], invoices[1]]);
    const second = await page(
      `created_at.gte=${from}&created_at.lte=${to}&limit=2&cursor=${String(first.body.next_cursor)}`,
    );
    expect(
      (second.body.items as { metadata: { invoice_id: string } }[]).map((item) => item.metadata.invoice_id),
    ).toEqual([invoices[0]]);
    expect(second.body.next_cursor).toBeUndefined();
    // Our client reads the same pages.
    const listed = await client.listPayments(Date.parse(from), Date.parse(to));
    expect(listed.items.map((item) => item.metadata?.invoice_id)).toEqual([...invoices].reverse());
  });

  test("status, payment_method and captured_at keep only the payments they name", async () => {
    const from = new Date(clock.now()).toISOString();
    const unpaid = freshKey("filter");
    const paidInvoice = freshKey("filter");
    await client.createPayment(paymentFor(unpaid), freshKey("k"));
    const paid = await client.createPayment(paymentFor(paidInvoice), freshKey("k"));
    await payAtCheckout(app, paid.id, "4242 4242 4242 4242");
    const invoicesOf = async (query: string) =>
      (
        (await rawCall(app, pair, "GET", `/v3/payments?created_at.gte=${from}&${query}`)).body.items as {
          metadata: { invoice_id: string };
        }[]
      ).map((item) => item.metadata.invoice_id);
    expect(await invoicesOf("status=succeeded")).toEqual([paidInvoice]);
    expect(await invoicesOf("status=pending")).toEqual([unpaid]);
    // Made in the same millisecond of the test clock: their order is their ids'.
    expect((await invoicesOf("payment_method=bank_card")).sort()).toEqual([paidInvoice, unpaid].sort());
    expect(await invoicesOf("payment_method=sbp")).toEqual([]);
    expect(await invoicesOf(`captured_at.gte=${from}`)).toEqual([paidInvoice]);
  });

  test("a bound, filter, limit or cursor it cannot read is refused 400, naming it", async () => {
    for (const [query, parameter] of [
      ["status=paid", "status"],
      ["payment_method=cash", "payment_method"],
      ["captured_at.lte=soon", "captured_at.lte"],
      ["created_at.gte=yesterday", "created_at.gte"],
      ["created_at.lt=2026-13-45T00:00:00Z", "created_at.lt"],
      ["limit=0", "limit"],
      ["limit=101", "limit"],
      ["limit=2.5", "limit"],
      ["cursor=not-ours", "cursor"],
    ])
      expect(await rawCall(app, pair, "GET", `/v3/payments?${query}`), query).toMatchObject({
        status: 400,
        body: { type: "error", code: "invalid_request", parameter },
      });
  });
});
