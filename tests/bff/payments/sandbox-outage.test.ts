import { describe, expect, test } from "vitest";
import { apiOf, dataOf, refusalOf } from "../../helpers/api";
import { makeTestApp, postJson, productionSettings, request } from "../../helpers/app";
import { signIn } from "../../helpers/customers";
import { order, payInSandbox, runBilling } from "../../helpers/payments";
import { payQr, sbpOrder } from "../../helpers/sbp";
import { payAtCheckout, paymentIdOf, rawCall, shopOf, yooKassaOrder } from "../../helpers/yookassa";

// DESIGN §11: a sandbox provider can be taken down on demand (demo only), so that failover
// and renewals through an outage can be shown against a real server process: while down,
// its API and its payer's pages answer 503 and do nothing; brought back, all works again.

const world = await makeTestApp();
const { app, context } = world;
const api = apiOf(app);
const outage = (provider: "cloudpayments" | "yookassa", isDown: boolean) =>
  dataOf(api.dev.sandbox.outage.post({ provider, isDown }));
const gatewayBasic = `Basic ${btoa(`${context.payments.gateway.publicId}:${context.config.cloudPaymentsApiSecret}`)}`;
const findAtCloudPayments = (invoiceId: string) =>
  app.handle(
    postJson(
      "/api/dev/sandbox/cloudpayments/v2/payments/find",
      { InvoiceId: invoiceId },
      { authorization: gatewayBasic },
    ),
  );

describe("the outage switch", () => {
  test("CloudPayments down: its API, the widget's payment and its SBP QRs answer 503 with nothing booked; back up, they work", async () => {
    const customer = await signIn(app, "outage-cp@example.com", { period: 1 });
    const options = await order(app, customer, 1, 1);
    const qrOrder = await sbpOrder(
      world,
      await signIn(app, "outage-cp-sbp@example.com", { period: 1 }),
      true,
      1,
    );
    expect(await outage("cloudpayments", true)).toEqual({ cloudpayments: true, yookassa: false });
    expect(await dataOf(api.dev.sandbox.outage.get())).toEqual({ cloudpayments: true, yookassa: false });

    const found = await findAtCloudPayments(options.invoiceId);
    expect(found.status).toBe(503);
    const paid = await payInSandbox(app, { invoiceId: options.invoiceId, cardNumber: "4242 4242 4242 4242" });
    expect(paid.status).toBe(503);
    expect(paid.body).toMatchObject({
      success: false,
      error: { code: "sandbox_provider_down", message: expect.stringContaining("CloudPayments is down") },
    });
    expect((await refusalOf(api.dev.sandbox.sbp.pay.post({ qr: qrOrder.qr }))).code).toBe(
      "sandbox_provider_down",
    );
    expect(await dataOf(api.dev.sandbox.ledger.get({ query: {} }))).toEqual([]);

    expect(await outage("cloudpayments", false)).toEqual({ cloudpayments: false, yookassa: false });
    expect((await findAtCloudPayments(options.invoiceId)).status).toBe(200);
    expect(paid.body).not.toHaveProperty("transactionId");
    const paidNow = await payInSandbox(app, {
      invoiceId: options.invoiceId,
      cardNumber: "4242 4242 4242 4242",
    });
    expect(paidNow).toMatchObject({ status: 200, body: { success: true } });
    expect(await payQr(world, qrOrder.qr)).toMatchObject({ success: true });
  });

  test("YooKassa down: its API answers 503 (YooKassa's error object) and its checkout refuses; back up, the payment goes through", async () => {
    const customer = await signIn(app, "outage-yk@example.com", { period: 1 });
    const { started } = await yooKassaOrder(app, context, customer);
    await outage("yookassa", true);
    const answer = await rawCall(app, shopOf(context), "GET", `/v3/payments/${paymentIdOf(started)}`);
    expect(answer).toMatchObject({ status: 503, body: { type: "error", code: "service_unavailable" } });
    const refused = await refusalOf(
      api.dev.sandbox.yookassa.checkout.pay.post({
        paymentId: paymentIdOf(started),
        cardNumber: "4242424242424242",
      }),
    );
    expect(refused).toMatchObject({ status: 503, code: "sandbox_provider_down" });
    expect(refused.message).toContain("YooKassa");
    await outage("yookassa", false);
    expect(await payAtCheckout(app, paymentIdOf(started), "4242 4242 4242 4242")).toMatchObject({
      success: true,
    });
  });

  test("a renewal pass while its provider is down leaves the attempt pending, charged nowhere", async () => {
    // An app of its own: the pass below charges only this customer.
    const { app, context } = await makeTestApp();
    const api = apiOf(app);
    const customer = await signIn(app, "outage-renewal@example.com", { period: 1 });
    const options = await order(app, customer, 1, 1);
    await payInSandbox(app, {
      invoiceId: options.invoiceId,
      cardNumber: "4242 4242 4242 4242",
      expiry: "11/31",
    });
    await dataOf(api.dev.clock.post({ advanceDays: 0.5 }));
    await runBilling(app); // the notice, 24 hours before the charge (DESIGN §13(a))
    await dataOf(api.dev.clock.post({ advanceDays: 1 }));
    await dataOf(api.dev.sandbox.outage.post({ provider: "cloudpayments", isDown: true }));
    try {
      expect(await runBilling(app)).toMatchObject({ charged: 1, completed: 0, declined: 0 });
    } finally {
      await dataOf(api.dev.sandbox.outage.post({ provider: "cloudpayments", isDown: false }));
    }
    const renewals = await context.database.all<{ status: string; invoice_id: string }>(
      "SELECT status, invoice_id FROM payments WHERE account_id = ? AND kind = 'renewal'",
      [options.accountId],
    );
    expect(renewals.map((row) => row.status)).toEqual(["pending"]);
    const ledger = await dataOf(api.dev.sandbox.ledger.get({ query: { accountId: options.accountId } }));
    expect(ledger.filter((entry) => entry.invoiceId.startsWith("renewal-"))).toEqual([]);
  });

  test("bad input is a 400 with a readable message", async () => {
    const send = (body: unknown) => app.handle(postJson("/api/dev/sandbox/outage", body));
    for (const body of [
      { provider: "stripe", isDown: true },
      { provider: "yookassa" },
      { isDown: "yes" },
      [],
    ]) {
      const answer = await send(body);
      expect(answer.status).toBe(400);
      const { error } = (await answer.json()) as { error: { code: string; message: string } };
      expect(error.message.length).toBeGreaterThan(10);
    }
  });

  test("production: the switch does not exist", async () => {
    const production = await makeTestApp(productionSettings);
    for (const sent of [
      postJson("/api/dev/sandbox/outage", { provider: "cloudpayments", isDown: true }),
      request("/api/dev/sandbox/outage"),
    ]) {
      const answer = await production.app.handle(sent);
      expect(answer.status).toBe(404);
      expect(((await answer.json()) as { error: { code: string } }).error.code).toBe("not_found");
    }
  });
});
