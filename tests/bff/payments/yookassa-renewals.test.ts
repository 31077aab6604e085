import { describe, expect, test } from "vitest";
import { runRenewals } from "../../../bff/jobs/renewals";
import { runRetention } from "../../../bff/jobs/retention";
import { providerOf } from "../../../bff/modules/payments/providers/provider-of";
import { buildReceipt } from "../../../bff/modules/payments/receipts/receipt";
import type { Clock } from "../../../bff/platform/clock";
import { providerRequests } from "../../../db/queries/provider-requests";
import { apiOf, dataOf } from "../../helpers/api";
import { makeTestApp } from "../../helpers/app";
import { signIn } from "../../helpers/customers";
import { advanceDays, passDays } from "../../helpers/payments";
import {
  armFault,
  paymentRowsOf,
  subscriptionRowOf,
  yooKassaCardCustomer,
  yooKassaLedger,
  yooKassaOrder,
} from "../../helpers/yookassa";

// DESIGN §6: a renewal charges the saved method where it is held. At YooKassa that is a
// POST /v3/payments naming the saved payment_method_id, under a key made from the
// attempt's invoice id and kept with its body before it is sent; a look-up after a crash
// sends that same request again and so finds the one payment, never a second.

const { app, context } = await makeTestApp();
const api = apiOf(app);
const yooKassa = () => providerOf(context.payments, "yookassa");

const receipt = (amount: number) =>
  buildReceipt(
    { kind: "renewal", amount, tariff_months: 1, trial_days: null, extra_devices: 0, is_trial: 0 },
    "renew@example.com",
    context.config.receipts,
  );

let invoices = 0;
const charge = (token: string, amount = 19_900) => ({
  invoiceId: `renewal-test-${++invoices}-${Date.now()}`,
  accountId: "customer-test",
  amount,
  currency: "RUB",
  description: "Kannt, renewal",
  token,
});

describe("renewals by the scheduler", () => {
  test("a card saved at YooKassa is charged by payment_method_id and the period extended", async () => {
    const customer = await yooKassaCardCustomer(app, context, "yk-renew@example.com");
    const before = await subscriptionRowOf(context, customer.accountId);
    await passDays(app, 2);
    const rows = await paymentRowsOf(context, customer.accountId);
    const renewal = rows.find((row) => row.kind === "renewal");
    expect(renewal).toMatchObject({ status: "completed", provider: "yookassa", method: "card" });
    const after = await subscriptionRowOf(context, customer.accountId);
    expect(after?.end_date).toBeGreaterThan(before?.end_date ?? 0);
    const charged = (await yooKassaLedger(app, customer.accountId)).filter(
      (entry) => entry.isSavedMethodCharge,
    );
    expect(charged).toMatchObject([
      {
        id: renewal?.transaction_id,
        status: "succeeded",
        paymentMethodId: customer.paymentId,
        metadata: { invoice_id: renewal?.invoice_id },
        amount: (renewal?.amount ?? 0) / 100,
        receipt: { customer: { email: customer.email }, items: [{ payment_subject: "service" }] },
      },
    ]);
    // The request was kept under a key made from the attempt's invoice, with the payment's id.
    const kept = await providerRequests.latestPaymentOf(
      context.database,
      "yookassa",
      renewal?.invoice_id ?? "",
    );
    expect(kept).toMatchObject({
      idempotence_key: `payment:${renewal?.invoice_id}`,
      object_id: renewal?.transaction_id,
    });
  });

  test("a card that pays first and then declines (4111): the renewal is declined, dunning keeps access", async () => {
    const customer = await yooKassaCardCustomer(app, context, "yk-4111@example.com", "4111 1111 1111 1111");
    await passDays(app, 1.5);
    const renewal = (await paymentRowsOf(context, customer.accountId)).find((row) => row.kind === "renewal");
    expect(renewal).toMatchObject({
      status: "declined",
      provider: "yookassa",
      decline_reason: "insufficient_funds",
      decline_reason_code: 5051,
    });
    expect(await subscriptionRowOf(context, customer.accountId)).toMatchObject({
      status: "ACTIVE",
      dunning_attempts: 1,
    });
  });

  test("SBP autopay: the charge is pending until the payer's bank decides, then settled by notification", async () => {
    for (const [account, status] of [
      ["ok", "completed"],
      ["revoked", "declined"],
    ] as const) {
      const customer = await signIn(app, `yk-sbp-renew-${account}@example.com`, { period: 1 });
      const { options, started } = await yooKassaOrder(app, context, customer, {
        method: "sbp",
        saveMethod: true,
      });
      if (!("sbp" in started)) throw new Error("no QR");
      const qr = new URL(started.sbp.qrUrl).searchParams.get("qr") ?? "";
      await dataOf(api.dev.sandbox.sbp.pay.post({ qr, account }));
      await passDays(app, 2);
      const renewals = async () =>
        (await paymentRowsOf(context, options.accountId)).filter((row) => row.kind === "renewal");
      await dataOf(api.dev.sandbox.yookassa.settled.get());
      const [renewal] = await renewals();
      expect(renewal).toMatchObject({ status, provider: "yookassa", method: "sbp" });
      if (account === "revoked") expect(renewal?.decline_reason).toBe("permission_revoked");
      // Charged once, whatever the passes in between did.
      const charged = (await yooKassaLedger(app, options.accountId)).filter(
        (entry) => entry.isSavedMethodCharge,
      );
      expect(charged.filter((entry) => entry.metadata.invoice_id === renewal?.invoice_id)).toHaveLength(1);
    }
  });
});

describe("chargeSaved and find through the provider", () => {
  test("an SBP account answers pending; the payer's bank decides after the answer, and a look-up then says so", async () => {
    const customer = await signIn(app, "yk-sbp-pending@example.com", { period: 1 });
    const { started } = await yooKassaOrder(app, context, customer, { method: "sbp", saveMethod: true });
    if (!("sbp" in started)) throw new Error("no QR");
    const qr = new URL(started.sbp.qrUrl).searchParams.get("qr") ?? "";
    const paid = await dataOf(api.dev.sandbox.sbp.pay.post({ qr, account: "declinesLater" }));
    const attempt = charge(String(paid.transactionId));
    const answer = await yooKassa().chargeSaved(attempt, receipt(19_900));
    expect(answer).toEqual({ status: "pending", transactionId: expect.any(String) });
    await dataOf(api.dev.sandbox.yookassa.settled.get());
    expect(await yooKassa().find(attempt.invoiceId)).toEqual({
      status: "declined",
      transactionId: answer.transactionId,
      reasonCode: 5051,
      reason: "insufficient_funds",
    });
  });

  test("paid, declined, and a method YooKassa does not hold: paid | declined(reason)", async () => {
    const good = await yooKassaCardCustomer(app, context, "yk-direct-good@example.com");
    const paid = await yooKassa().chargeSaved(charge(good.paymentId), receipt(19_900));
    expect(paid).toEqual({ status: "paid", transactionId: expect.any(String) });
    const bad = await yooKassaCardCustomer(app, context, "yk-direct-bad@example.com", "4000 0000 0000 0069");
    expect(await yooKassa().chargeSaved(charge(bad.paymentId), receipt(19_900))).toEqual({
      status: "declined",
      transactionId: expect.any(String),
      reasonCode: 5054,
      reason: "card_expired",
    });
    expect(await yooKassa().chargeSaved(charge("no-such-method"), receipt(19_900))).toMatchObject({
      status: "declined",
      transactionId: null,
      reasonCode: null,
      reason: expect.stringContaining("saved payment method"),
    });
  });

  test("the same attempt charged twice (a busy retry, another instance) is one payment", async () => {
    const customer = await yooKassaCardCustomer(app, context, "yk-twice@example.com");
    const attempt = charge(customer.paymentId);
    const first = await yooKassa().chargeSaved(attempt, receipt(19_900));
    const second = await yooKassa().chargeSaved(attempt, receipt(19_900));
    expect(second).toEqual(first);
    const made = (await yooKassaLedger(app)).filter(
      (entry) => entry.metadata.invoice_id === attempt.invoiceId,
    );
    expect(made).toHaveLength(1);
  });

  test("every answer lost (a crash, an outage): find sends the kept request again and finds the one payment", async () => {
    const customer = await yooKassaCardCustomer(app, context, "yk-lost@example.com");
    const attempt = charge(customer.paymentId);
    await armFault(app, { kind: "error", count: 3, isWorkDone: true, method: "POST" });
    await expect(yooKassa().chargeSaved(attempt, receipt(19_900))).rejects.toThrow(/gave no answer/);
    const kept = await providerRequests.latestPaymentOf(context.database, "yookassa", attempt.invoiceId);
    expect(kept?.object_id).toBeNull();
    const found = await yooKassa().find(attempt.invoiceId);
    expect(found).toEqual({ status: "paid", transactionId: expect.any(String) });
    const made = (await yooKassaLedger(app)).filter(
      (entry) => entry.metadata.invoice_id === attempt.invoiceId,
    );
    expect(made.map((entry) => entry.id)).toEqual([found?.transactionId]);
    // Now named: a look-up reads it by its id.
    expect(await yooKassa().find(attempt.invoiceId)).toEqual(found);
  });

  test("an attempt never sent is found nowhere; one sent too long ago is looked for in YooKassa's list, never sent again", async () => {
    expect(await yooKassa().find("renewal-never-sent")).toBeNull();
    const customer = await yooKassaCardCustomer(app, context, "yk-old@example.com");
    // Nothing made: past the key's 24 hours, the list says so and the attempt was never sent.
    const unmade = charge(customer.paymentId);
    await armFault(app, { kind: "error", count: 3, isWorkDone: false, method: "POST" });
    await expect(yooKassa().chargeSaved(unmade, receipt(19_900))).rejects.toThrow();
    // Made, every answer lost: past the 24 hours, the list names the one payment.
    const made = charge(customer.paymentId);
    await armFault(app, { kind: "error", count: 3, isWorkDone: true, method: "POST" });
    await expect(yooKassa().chargeSaved(made, receipt(19_900))).rejects.toThrow();
    await passDays(app, 1.01);
    expect(await yooKassa().find(unmade.invoiceId)).toBeNull();
    const found = await yooKassa().find(made.invoiceId);
    expect(found).toEqual({ status: "paid", transactionId: expect.any(String) });
    const ledger = await yooKassaLedger(app);
    expect(ledger.filter((entry) => entry.metadata.invoice_id === unmade.invoiceId)).toEqual([]);
    expect(
      ledger.filter((entry) => entry.metadata.invoice_id === made.invoiceId).map((entry) => entry.id),
    ).toEqual([found?.transactionId]);
  });

  test("an attempt unanswered through a three-day outage: its kept request outlives retention, and the look-up past the key's day charges it once", async () => {
    const { app, context } = await makeTestApp();
    const customer = await yooKassaCardCustomer(app, context, "yk-long-outage@example.com");
    await passDays(app, 0.5);
    await advanceDays(app, 1);
    let skewMs = 0;
    const leaseClock: Clock = { now: () => Date.now() + skewMs };
    await armFault(app, { kind: "error", count: 30, isWorkDone: false, method: "POST" });
    expect(await runRenewals(context, { leaseClock })).toMatchObject({ charged: 1, completed: 0 });
    await dataOf(apiOf(app).dev.sandbox.yookassa.faults.delete());
    const [attempt] = (await paymentRowsOf(context, customer.accountId)).filter(
      (row) => row.kind === "renewal",
    );
    expect(attempt?.status).toBe("pending");
    // Three days on, past the two days kept requests last: this one is what says it was sent.
    await advanceDays(app, 3);
    await runRetention(context);
    const kept = await providerRequests.latestPaymentOf(
      context.database,
      "yookassa",
      attempt?.invoice_id ?? "",
    );
    expect(kept?.object_id).toBeNull();
    // YooKassa's list shows it made nothing: settled as never sent, and charged afresh, once.
    skewMs = 31_000;
    await runRenewals(context, { leaseClock });
    await passDays(app, 2);
    const renewals = (await paymentRowsOf(context, customer.accountId)).filter(
      (row) => row.kind === "renewal",
    );
    const completed = renewals.filter((row) => row.status === "completed");
    expect(completed).toHaveLength(1);
    const made = (await yooKassaLedger(app, customer.accountId)).filter((entry) => entry.isSavedMethodCharge);
    expect(made.map((entry) => entry.id)).toEqual([completed[0]?.transaction_id]);
    expect(made.map((entry) => entry.metadata.invoice_id)).not.toContain(attempt?.invoice_id);
  });

  test("a renewal pass during an outage leaves the attempt pending; once its lease is gone a pass finds it by sending the kept request again", async () => {
    // An app of its own: the passes below count only this customer's renewal.
    const { app, context } = await makeTestApp();
    const api = apiOf(app);
    const customer = await yooKassaCardCustomer(app, context, "yk-outage@example.com");
    await passDays(app, 0.5); // the notice, 24 hours before the charge (DESIGN §13(a))
    await advanceDays(app, 1);
    let skewMs = 0;
    const leaseClock: Clock = { now: () => Date.now() + skewMs };
    // YooKassa answers every POST of this pass with a 500 and makes nothing.
    await armFault(app, { kind: "error", count: 30, isWorkDone: false, method: "POST" });
    expect(await runRenewals(context, { leaseClock })).toMatchObject({ charged: 1, completed: 0 });
    await dataOf(api.dev.sandbox.yookassa.faults.delete());
    const renewals = async () =>
      (await paymentRowsOf(context, customer.accountId)).filter((row) => row.kind === "renewal");
    expect((await renewals()).map((row) => row.status)).toEqual(["pending"]);
    // While the pass's lease lives, its attempt is its own.
    expect(await runRenewals(context, { leaseClock })).toMatchObject({ recovered: 0, charged: 0 });
    skewMs = 31_000;
    expect(await runRenewals(context, { leaseClock })).toMatchObject({ recovered: 1, charged: 0 });
    expect((await renewals()).map((row) => row.status)).toEqual(["completed"]);
    const made = (await yooKassaLedger(app, customer.accountId)).filter((entry) => entry.isSavedMethodCharge);
    expect(made.map((entry) => entry.id)).toEqual([(await renewals())[0]?.transaction_id]);
  });
});
