import { describe, expect, test } from "vitest";
import { apiOf, dataOf, identityOf, sessionOf } from "../../../helpers/api";
import { makeTestApp } from "../../../helpers/app";
import { type SignedIn, signIn } from "../../../helpers/customers";
import { advanceDays, ledger, passDays } from "../../../helpers/payments";
import { payQr, sbpOrder } from "../../../helpers/sbp";

// DESIGN §6, SBP through CloudPayments: the order's QR, its outcome only by notification,
// a QR paid twice activating once (the second payment back at once), a decline or the QR's
// end leaving the order unpaid with a reason, and autopay renewals that settle by notification.

type TestApp = Awaited<ReturnType<typeof makeTestApp>>;

const profileOf = async ({ app }: TestApp, customer: SignedIn) =>
  (await dataOf(apiOf(app).profile.post(identityOf(customer), sessionOf(customer)))).userInfo;

const orderStatus = ({ app }: TestApp, invoiceId: string, language = "en") =>
  dataOf(apiOf(app).shop.orderStatus.post({ invoiceId }, { headers: { cookie: `i18next=${language}` } }));

const paymentOf = (world: TestApp, invoiceId: string) =>
  world.context.database.get<{ method: string; status: string; provider: string }>(
    "SELECT method, status, provider FROM payments WHERE invoice_id = ?",
    [invoiceId],
  );

describe("a first payment by SBP", () => {
  test("the order answers its QR: a link to the bank's app and an image; paying it activates the subscription", async () => {
    const world = await makeTestApp();
    const customer = await signIn(world.app, "sbp-first@example.com");
    const order = await sbpOrder(world, customer);
    expect(order.sbp.qrUrl).toContain("/dev-sbp?qr=");
    expect(
      Buffer.from(order.sbp.qrImage ?? "", "base64")
        .subarray(1, 4)
        .toString(),
    ).toBe("PNG");
    expect(Date.parse(order.sbp.expiresAt)).toBeGreaterThan(world.clock.now());
    expect(await paymentOf(world, order.invoiceId)).toEqual({
      method: "sbp",
      status: "pending",
      provider: "cloudpayments",
    });
    expect(await orderStatus(world, order.invoiceId)).toEqual({ status: "pending" });

    expect((await payQr(world, order.qr)).success).toBe(true);
    expect((await profileOf(world, customer)).subscriptionStatus).toBe("ACTIVE");
    expect(await paymentOf(world, order.invoiceId)).toMatchObject({ method: "sbp", status: "completed" });
    expect(await orderStatus(world, order.invoiceId)).toEqual({ status: "completed" });
    const [entry] = await ledger(world.app, order.accountId);
    expect(entry).toMatchObject({ kind: "payment", status: "Completed", method: "sbp" });
  });

  test("a QR paid again is refused at Check: nothing more is taken", async () => {
    const world = await makeTestApp();
    const customer = await signIn(world.app, "sbp-again@example.com");
    const order = await sbpOrder(world, customer);
    expect((await payQr(world, order.qr)).success).toBe(true);
    expect((await payQr(world, order.qr)).success).toBe(false);
    const entries = await ledger(world.app, order.accountId);
    expect(entries.map((entry) => [entry.kind, entry.status])).toEqual([
      ["payment", "Completed"],
      ["payment", "Declined"],
    ]);
  });

  test("a QR paid twice whose Checks both passed first activates once; the second payment goes back at once", async () => {
    const world = await makeTestApp();
    // Both payments' Checks passed before either Pay (two phones at once): the shop's
    // Check is answered here as it was then, and only the Pays reach the product.
    const deliver = world.context.http.fetch.bind(world.context.http);
    world.context.http.fetch = async (request) =>
      request.url.endsWith("/api/payments/cloudpayments/check")
        ? Response.json({ code: 0 })
        : deliver(request);
    const customer = await signIn(world.app, "sbp-twice@example.com");
    const order = await sbpOrder(world, customer);
    const first = await payQr(world, order.qr);
    const until = (await profileOf(world, customer)).expirationDate;
    const second = await payQr(world, order.qr);
    expect(second.success).toBe(true);
    expect(second.transactionId).not.toBe(first.transactionId);

    expect((await profileOf(world, customer)).expirationDate).toBe(until);
    const entries = await ledger(world.app, order.accountId);
    const refunds = entries.filter((entry) => entry.kind === "refund");
    expect(refunds).toHaveLength(1);
    expect(refunds[0]?.amount).toBe(order.amount);
    // The refund is of the second payment, never the first that bought the period.
    const payments = entries.filter((entry) => entry.kind === "payment");
    expect(payments.map((entry) => entry.status)).toEqual(["Completed", "Completed"]);
    expect(await paymentOf(world, order.invoiceId)).toMatchObject({ status: "completed" });
    const kept = await world.context.database.get<{ transaction_id: string; refunded: number }>(
      "SELECT transaction_id, refunded_at IS NOT NULL AS refunded FROM duplicate_payments",
    );
    expect(kept).toEqual({ transaction_id: String(second.transactionId), refunded: 1 });
    expect((await profileOf(world, customer)).subscriptionStatus).toBe("ACTIVE");
    // The customer is told the money goes back by SBP, and not that access ended: it did not.
    const [told] = (await dataOf(apiOf(world.app).dev.mail.get({ query: { to: customer.email } }))).filter(
      (mail) => mail.kind === "refund_made",
    );
    expect(told?.text).toContain("We have refunded your Kannt payments by SBP to your bank account.");
    expect(told?.text).not.toContain("to your card");
    expect(told?.text).not.toContain("Your access to Kannt has ended.");
  });

  test("declined by the payer's bank: unpaid, and the screen can say why in the customer's language", async () => {
    const world = await makeTestApp();
    const customer = await signIn(world.app, "sbp-declined@example.com");
    const order = await sbpOrder(world, customer);
    expect((await payQr(world, order.qr, "decline")).success).toBe(false);
    expect((await profileOf(world, customer)).subscriptionStatus).toBe("NOT_ACTIVE");
    const status = await orderStatus(world, order.invoiceId, "ru");
    expect(status.status).toBe("declined");
    expect(status.reason).toMatch(/СБП/);
    expect((await orderStatus(world, order.invoiceId, "kk")).reason).toMatch(/СБП/);
  });

  test("a QR past its end takes no payment and the order says it expired", async () => {
    const world = await makeTestApp();
    const customer = await signIn(world.app, "sbp-expired@example.com");
    const order = await sbpOrder(world, customer);
    await advanceDays(world.app, 31 / (24 * 60));
    expect(await payQr(world, order.qr)).toMatchObject({ success: false, message: "QR expired" });
    const status = await orderStatus(world, order.invoiceId, "en");
    expect(status).toMatchObject({ status: "expired" });
    expect(status.reason).toMatch(/expired; nothing was charged/);
    expect((await profileOf(world, customer)).subscriptionStatus).toBe("NOT_ACTIVE");
  });

  test("an anonymous purchase may be paid by SBP too", async () => {
    const world = await makeTestApp();
    const prepaidToken = `${"5b9d00".repeat(5)}1_30_1`;
    const answer = await dataOf(
      apiOf(world.app).shop.order.post({ prepaidToken, tariff: 1, period: 30, method: "sbp" }),
    );
    const qr = new URL(answer.sbp?.qrUrl ?? "").searchParams.get("qr") ?? "";
    expect((await payQr(world, qr)).success).toBe(true);
    expect(await paymentOf(world, answer.invoiceId)).toMatchObject({ method: "sbp", status: "completed" });
  });
});

describe("SBP autopay", () => {
  test("a QR paid with autopay allowed is the saved method; the renewal is pending until Pay, then renewed once", async () => {
    const world = await makeTestApp();
    const customer = await signIn(world.app, "sbp-autopay@example.com", { period: 1 });
    const order = await sbpOrder(world, customer, true, 1);
    expect((await payQr(world, order.qr, "pay", "ok")).success).toBe(true);
    const saved = await world.context.database.get<{ saved_method: string; has_token: number }>(
      "SELECT s.saved_method, s.card_token IS NOT NULL AS has_token FROM subscriptions s JOIN payments p ON p.subscription_id = s.id WHERE p.invoice_id = ?",
      [order.invoiceId],
    );
    expect(saved).toEqual({ saved_method: "sbp", has_token: 1 });
    const until = (await profileOf(world, customer)).expirationDate;

    await passDays(world.app, 1.5);
    await dataOf(apiOf(world.app).dev.sandbox.sbp.settled.get());
    const renewals = await world.context.database.all<{ status: string; method: string }>(
      "SELECT status, method FROM payments WHERE kind = 'renewal' AND account_id = ?",
      [order.accountId],
    );
    expect(renewals).toEqual([{ status: "completed", method: "sbp" }]);
    expect((await profileOf(world, customer)).expirationDate).not.toBe(until);
    const charges = (await ledger(world.app, order.accountId)).filter((entry) => entry.kind === "payment");
    expect(charges.map((entry) => entry.method)).toEqual(["sbp", "sbp"]);
  });
});
