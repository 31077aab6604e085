import { describe, expect, test } from "vitest";
import { createSandboxGateway } from "../../../bff/adapters/sandbox/gateway";
import type { HttpClient } from "../../../bff/platform/http-client";
import { dataOf } from "../../helpers/api";
import { ledger } from "../../helpers/payments";
import { cardFields, freshInvoice, receiptFor, sbpBank } from "./sandbox-sbp-bank";

// DESIGN §6, SBP autopay: a QR paid with SaveCard leaves a token; charging it answers
// without a final status (Pending) and the outcome comes later by notification, as the
// payer's bank chose on the bank page: ok (Pay), declinesLater (Fail 5051), revoked (Fail
// 6001), silent (Completed, no notification: only a look-up tells).

const bank = await sbpBank();
const { app, context, api, sandbox } = bank;

type Account = "ok" | "declinesLater" | "revoked" | "silent";

/** An SBP autopay binding: a QR asking SaveCard, paid by a payer whose bank behaves as `account` says. */
async function bindingOf(account: Account) {
  const { request, model } = await bank.openQr({ SaveCard: true });
  const paid = await dataOf(api.dev.sandbox.sbp.pay.post({ qr: String(model.ProviderQrId), account }));
  expect(paid.success).toBe(true);
  const pay = bank.notificationsOf(request.InvoiceId).find(({ kind }) => kind === "pay");
  return { accountId: request.AccountId, token: String(pay?.Token) };
}

/** A renewal's charge of the binding, as the product's gateway client sends it. */
const chargeOf = (binding: { accountId: string; token: string }, amount = 150) => ({
  Amount: amount,
  Currency: "RUB",
  AccountId: binding.accountId,
  Token: binding.token,
  InvoiceId: freshInvoice("renewal"),
  Description: "Kannt, renewal",
  TrInitiatorCode: 0,
  PaymentScheduled: 1,
  JsonData: receiptFor(amount),
});

const find = async (invoiceId: string) =>
  (await bank.gatewayCall("/v2/payments/find", { InvoiceId: invoiceId })).body.Model ?? {};

describe("a QR paid with SaveCard", () => {
  test("Pay carries a new SBP token; a QR without SaveCard gives none", async () => {
    const first = await bindingOf("ok");
    const second = await bindingOf("ok");
    expect(first.token).toMatch(/^sbp_/);
    expect(second.token).not.toBe(first.token);
    const shown = await bank.openQr({ SaveCard: true });
    expect(
      await dataOf(api.dev.sandbox.sbp.qr.get({ query: { qr: String(shown.model.ProviderQrId) } })),
    ).toMatchObject({ asksAutopay: true });
  });
});

describe("charging an SBP binding: Pending, then the outcome by notification", () => {
  const outcomes = [
    { account: "ok", status: "Completed", notified: [["pay", "0"]] },
    { account: "declinesLater", status: "Declined", notified: [["fail", "5051"]] },
    { account: "revoked", status: "Declined", notified: [["fail", "6001"]] },
    { account: "silent", status: "Completed", notified: [] },
  ] as const;

  test.each(outcomes)("$account: $status, notified $notified", async ({ account, status, notified }) => {
    const binding = await bindingOf(account);
    const charge = chargeOf(binding);
    const answer = (await bank.gatewayCall("/payments/tokens/charge", charge)).body;
    expect(answer).toMatchObject({
      Success: false,
      Message: "Pending",
      Model: {
        TransactionId: expect.any(Number),
        Amount: 150,
        Currency: "RUB",
        InvoiceId: charge.InvoiceId,
        AccountId: binding.accountId,
        Status: "Pending",
        PaymentMethod: "Sbp",
        Token: binding.token,
      },
    });
    expect(cardFields.filter((name) => answer.Model?.[name] !== undefined)).toEqual([]);
    const transactionId = answer.Model?.TransactionId;
    expect(await find(charge.InvoiceId)).toMatchObject({ TransactionId: transactionId, Status: "Pending" });

    await sandbox.sbp.settled();
    const sent = bank.notificationsOf(charge.InvoiceId);
    expect(sent.map(({ kind, ReasonCode }) => [kind, ReasonCode])).toEqual(notified);
    for (const fields of sent)
      expect(fields).toMatchObject({
        TransactionId: String(transactionId),
        Status: status,
        PaymentMethod: "Sbp",
        Token: binding.token,
        Amount: "150.00",
      });
    expect(await find(charge.InvoiceId)).toMatchObject({ TransactionId: transactionId, Status: status });
    // One call, one transaction, settled once.
    const charged = (await ledger(app, binding.accountId)).filter(
      ({ invoiceId }) => invoiceId === charge.InvoiceId,
    );
    expect(charged.map((entry) => [Number(entry.transactionId), entry.status, entry.method])).toEqual([
      [transactionId, status, "sbp"],
    ]);
  });

  test("the shop reads the answer before the notification, through its own gateway client", async () => {
    const binding = await bindingOf("ok");
    for (let round = 0; round < 5; round++) {
      const { InvoiceId, Description, AccountId, Token } = chargeOf(binding);
      const receipt = receiptFor(150).CloudPayments.CustomerReceipt;
      const answer = await context.payments.gateway.chargeToken(
        { Amount: 150, Currency: "RUB", AccountId, Token, InvoiceId, Description },
        receipt,
      );
      expect(answer).toMatchObject({ Success: false, Message: "Pending", Model: { Status: "Pending" } });
      expect(bank.notificationsOf(InvoiceId)).toEqual([]);
      await sandbox.sbp.settled();
      expect(bank.notificationsOf(InvoiceId).map(({ kind }) => kind)).toEqual(["pay"]);
    }
  });

  test("a slow bank settles only after its slow answer was given", async () => {
    const slow = await sbpBank({ SANDBOX_LATENCY_MS: "150" });
    const { request, model } = await slow.openQr({ SaveCard: true });
    await dataOf(slow.api.dev.sandbox.sbp.pay.post({ qr: String(model.ProviderQrId) }));
    const token = String(slow.notificationsOf(request.InvoiceId).find(({ kind }) => kind === "pay")?.Token);
    const charge = chargeOf({ accountId: request.AccountId, token });
    const answer = await slow.gatewayCall("/payments/tokens/charge", charge);
    expect(answer.body).toMatchObject({ Message: "Pending" });
    expect(slow.notificationsOf(charge.InvoiceId)).toEqual([]);
    await slow.sandbox.sbp.settled();
    expect(slow.notificationsOf(charge.InvoiceId).map(({ kind }) => kind)).toEqual(["pay"]);
  });

  test("GET /api/dev/sandbox/sbp/settled answers once every Pending charge is settled", async () => {
    const binding = await bindingOf("declinesLater");
    const charges = [chargeOf(binding), chargeOf(binding), chargeOf(binding)];
    await Promise.all(charges.map((charge) => bank.gatewayCall("/payments/tokens/charge", charge)));
    expect(await dataOf(api.dev.sandbox.sbp.settled.get())).toEqual({ isSettled: true });
    expect(sandbox.sbp.pendingSettlements).toBe(0);
    const entries = await ledger(app, binding.accountId);
    for (const charge of charges)
      expect(entries.find(({ invoiceId }) => invoiceId === charge.InvoiceId)?.status).toBe("Declined");
  });

  test("a Pending charge cannot be refunded, and a charge in another currency is refused", async () => {
    const binding = await bindingOf("ok");
    const pending = (await bank.gatewayCall("/payments/tokens/charge", chargeOf(binding))).body;
    const refund = await bank.gatewayCall("/payments/refund", {
      TransactionId: pending.Model?.TransactionId,
      Amount: 150,
    });
    expect(refund.body).toMatchObject({ Success: false });
    await sandbox.sbp.settled();
    const inTenge = (
      await bank.gatewayCall("/payments/tokens/charge", { ...chargeOf(binding), Currency: "KZT" })
    ).body;
    expect(inTenge).toMatchObject({ Success: false, Message: expect.stringContaining("RUB") });
    expect(inTenge.Model).toBeUndefined();
  });

  test("a charge a stopped bank left Pending is settled when the bank opens again", async () => {
    const binding = await bindingOf("ok");
    const quiet: HttpClient = {
      fetch: async () => Response.json({ code: 0 }),
      attachLoopback: () => undefined,
    };
    const settings = {
      apiSecret: context.config.cloudPaymentsApiSecret,
      notificationUrl: "http://shop.invalid",
    };
    const stopped = createSandboxGateway(sandbox.ledger, context.clock, quiet, settings);
    const charge = chargeOf(binding);
    // Its answer never counts as given: the bank stopped before it could settle.
    const answer = await stopped.chargeToken(charge, new Promise(() => {}));
    expect(answer).toMatchObject({ Message: "Pending" });
    const reopened = createSandboxGateway(sandbox.ledger, context.clock, quiet, settings);
    await reopened.sbp.settled();
    expect(await find(charge.InvoiceId)).toMatchObject({ Status: "Completed" });
  });
});
