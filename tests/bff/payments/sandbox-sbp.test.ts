import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { createSandboxGateway } from "../../../bff/adapters/sandbox/gateway";
import { openLedger } from "../../../bff/adapters/sandbox/ledger";
import type { HttpClient } from "../../../bff/platform/http-client";
import { ledgerTransactions } from "../../../db/queries/sandbox-ledger";
import { dataOf, refusalOf } from "../../helpers/api";
import { signIn } from "../../helpers/customers";
import { advanceDays, cards, ledger, order, payWithCard } from "../../helpers/payments";
import { cardFields, receiptFor, sbpBank } from "./sandbox-sbp-bank";

// DESIGN §6: the CloudPayments sandbox takes SBP like the real gateway: a QR's link or
// image, paid (Check, then Pay) or declined (Fail) in the payer's bank app with
// PaymentMethod "Sbp" and no card, paid twice if the payer pays twice, refused once expired.

const bank = await sbpBank();
const { app, context, api, sandbox } = bank;

const payQr = (body: Parameters<typeof api.dev.sandbox.sbp.pay.post>[0]) =>
  dataOf(api.dev.sandbox.sbp.pay.post(body));

const withoutCard = (fields: Record<string, unknown>) =>
  cardFields.filter((name) => fields[name] !== undefined);

describe("a QR for SBP", () => {
  test("the link names the bank page, the QR's transaction id and its expiry on the test clock", async () => {
    const before = context.clock.now();
    const { request, answer, model } = await bank.openQr();
    expect(answer).toMatchObject({ Success: true, Message: null });
    expect(model).toEqual({
      QrUrl: expect.any(String),
      ProviderQrId: expect.stringMatching(/^[A-Z0-9]{32}$/),
      TransactionId: expect.any(Number),
      Amount: 100,
      Currency: "RUB",
      InvoiceId: request.InvoiceId,
      AccountId: request.AccountId,
      ExpiresAt: expect.any(String),
    });
    // The test clock runs on: the expiry is 30 minutes after some moment of the call.
    const expiresAt = Date.parse(String(model.ExpiresAt));
    expect(expiresAt).toBeGreaterThanOrEqual(before + 30 * 60_000);
    expect(expiresAt).toBeLessThanOrEqual(context.clock.now() + 30 * 60_000);
    const url = new URL(String(model.QrUrl));
    expect(url.origin).toBe(new URL(context.config.publicUrl).origin);
    expect(url.pathname).toBe("/dev-sbp");
    expect(url.searchParams.get("qr")).toBe(model.ProviderQrId);
    // The page's own look-up tells the payer what they are asked to pay.
    const shown = await dataOf(api.dev.sandbox.sbp.qr.get({ query: { qr: String(model.ProviderQrId) } }));
    expect(shown).toEqual({
      qr: model.ProviderQrId,
      merchant: "Kannt",
      amount: 100,
      currency: "RUB",
      description: "Kannt, 1 month",
      expiresAt: model.ExpiresAt,
      isExpired: false,
      asksAutopay: false,
      payerPhone: null,
      state: "created",
      attempts: 0,
    });
  });

  test("a QR asked with the payer's phone keeps it, and the bank page shows it", async () => {
    const { answer, model } = await bank.openQr({ Phone: "+79123456789" });
    expect(answer.Success).toBe(true);
    const shown = await dataOf(api.dev.sandbox.sbp.qr.get({ query: { qr: String(model.ProviderQrId) } }));
    expect(shown.payerPhone).toBe("+79123456789");
  });

  test("the image is the same QR as a 256 px PNG, base64 without a data: prefix", async () => {
    const { answer, model } = await bank.openQr(
      { TtlMinutes: 4320, SaveCard: true },
      "/payments/qr/sbp/image",
    );
    expect(answer.Success).toBe(true);
    expect(String(model.QrUrl)).toContain(`/dev-sbp?qr=${model.ProviderQrId}`);
    expect(String(model.QrImage)).toMatch(/^[A-Za-z0-9+/]+=*$/);
    const png = Buffer.from(String(model.QrImage), "base64");
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    // IHDR: width and height, big-endian, right after the chunk's length and name.
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([256, 256]);
    expect(Date.parse(String(model.ExpiresAt)) - context.clock.now()).toBeGreaterThan(4319 * 60_000);
  });

  test("a bad amount, receipt, currency, lifetime or scheme is refused in the answer, and no QR is made", async () => {
    const refusals = await Promise.all(
      [
        { Amount: -1 },
        { Amount: 1e308 },
        { JsonData: receiptFor(99) },
        { JsonData: "{not json" },
        { Currency: "KZT" },
        { TtlMinutes: 0 },
        { TtlMinutes: 4321 },
        { TtlMinutes: 1.5 },
        { Scheme: "auth" },
      ].map(async (fields) => (await bank.openQr(fields)).answer),
    );
    for (const answer of refusals) {
      expect(answer).toMatchObject({ Success: false, Message: expect.any(String) });
      expect(answer.Model).toBeUndefined();
    }
    expect((await bank.openQr({ JsonData: receiptFor(100), Scheme: "charge" })).answer.Success).toBe(true);
  });

  test("the gateway's credentials are required, as for every call of its API", async () => {
    const body = { Amount: 1, Currency: "RUB", InvoiceId: "sbp-no-auth", AccountId: "a", Description: "d" };
    for (const path of ["/payments/qr/sbp/link", "/payments/qr/sbp/image"]) {
      const answer = await bank.gatewayCall(path, body, `Basic ${btoa("pk:wrong")}`);
      expect(answer.status).toBe(401);
    }
  });
});

describe("paying a QR in the payer's bank", () => {
  test("pay: Check, then Pay, signed, with PaymentMethod Sbp, the QR's transaction id and no card", async () => {
    const { request, model } = await bank.openQr({ JsonData: receiptFor(100) });
    const paid = await payQr({ qr: String(model.ProviderQrId) });
    expect(paid).toEqual({ success: true, transactionId: model.TransactionId, message: null });
    const sent = bank.notificationsOf(request.InvoiceId);
    expect(sent.map(({ kind }) => kind)).toEqual(["check", "pay"]);
    for (const fields of sent) {
      expect(fields).toMatchObject({
        TransactionId: String(model.TransactionId),
        Amount: "100.00",
        Currency: "RUB",
        InvoiceId: request.InvoiceId,
        AccountId: request.AccountId,
        Email: "payer@example.com",
        PaymentMethod: "Sbp",
        TestMode: "1",
      });
      expect(withoutCard(fields)).toEqual([]);
      // No autopay was asked for: nothing to charge later.
      expect(fields.Token).toBeUndefined();
    }
    expect(sent[1]).toMatchObject({ Status: "Completed", OperationType: "Payment", ReasonCode: "0" });
    expect(bank.received.every(({ isSigned }) => isSigned)).toBe(true);
    const [entry] = await ledger(app, request.AccountId);
    expect(entry).toMatchObject({
      transactionId: String(model.TransactionId),
      status: "Completed",
      kind: "payment",
      method: "sbp",
      receipt: receiptFor(100).CloudPayments.CustomerReceipt,
    });
    expect(entry?.notifications.map(({ kind, status, code }) => [kind, status, code])).toEqual([
      ["check", 200, 0],
      ["pay", 200, 0],
    ]);
  });

  test("a QR paid twice is two transactions, the second with an id of its own", async () => {
    const { request, model } = await bank.openQr();
    const qr = String(model.ProviderQrId);
    const first = await payQr({ qr });
    const second = await payQr({ qr });
    expect(first).toMatchObject({ success: true, transactionId: model.TransactionId });
    expect(second).toMatchObject({ success: true, transactionId: expect.any(Number) });
    expect(second.transactionId).not.toBe(first.transactionId);
    const entries = await ledger(app, request.AccountId);
    expect(
      entries.map(({ transactionId, status, method }) => [Number(transactionId), status, method]),
    ).toEqual([
      [first.transactionId, "Completed", "sbp"],
      [second.transactionId, "Completed", "sbp"],
    ]);
    expect(
      bank.notificationsOf(request.InvoiceId).map(({ kind, TransactionId }) => [kind, Number(TransactionId)]),
    ).toEqual([
      ["check", first.transactionId],
      ["pay", first.transactionId],
      ["check", second.transactionId],
      ["pay", second.transactionId],
    ]);
    expect(await dataOf(api.dev.sandbox.sbp.qr.get({ query: { qr } }))).toMatchObject({
      state: "paid",
      attempts: 2,
    });
  });

  test("two payments of one QR at once: exactly one has the QR's transaction id", async () => {
    const { request, model } = await bank.openQr();
    const qr = String(model.ProviderQrId);
    const answers = await Promise.all([payQr({ qr }), payQr({ qr }), payQr({ qr })]);
    const ids = answers.map(({ transactionId }) => transactionId);
    expect(answers.every(({ success }) => success)).toBe(true);
    expect(ids.filter((id) => id === model.TransactionId)).toHaveLength(1);
    expect(new Set(ids).size).toBe(3);
    expect(await ledger(app, request.AccountId)).toHaveLength(3);
  });

  test("decline: the payment is Declined and Fail says 5051, with no Check", async () => {
    const { request, model } = await bank.openQr();
    const declined = await payQr({ qr: String(model.ProviderQrId), outcome: "decline" });
    expect(declined).toEqual({
      success: false,
      transactionId: model.TransactionId,
      message: expect.any(String),
    });
    expect(bank.notificationsOf(request.InvoiceId)).toEqual([
      expect.objectContaining({
        kind: "fail",
        TransactionId: String(model.TransactionId),
        Status: "Declined",
        ReasonCode: "5051",
        Reason: expect.any(String),
        PaymentMethod: "Sbp",
      }),
    ]);
    expect(await ledger(app, request.AccountId)).toEqual([
      expect.objectContaining({
        status: "Declined",
        method: "sbp",
        transactionId: String(model.TransactionId),
      }),
    ]);
  });

  test("a Check the shop refuses declines the payment and sends Fail, as for a card", async () => {
    const { request, model } = await bank.openQr();
    bank.shop.checkCode = 12;
    try {
      const refused = await payQr({ qr: String(model.ProviderQrId) });
      expect(refused).toMatchObject({ success: false, transactionId: model.TransactionId, checkCode: 12 });
    } finally {
      bank.shop.checkCode = 0;
    }
    expect(bank.notificationsOf(request.InvoiceId).map(({ kind, ReasonCode }) => [kind, ReasonCode])).toEqual(
      [
        ["check", undefined],
        ["fail", "5204"],
      ],
    );
    expect((await ledger(app, request.AccountId))[0]).toMatchObject({ status: "Declined", method: "sbp" });
  });

  test("an expired QR is refused: nothing booked, nothing sent", async () => {
    const { request, model } = await bank.openQr({ TtlMinutes: 1 });
    await advanceDays(app, 61 / 86_400);
    const qr = String(model.ProviderQrId);
    expect(await payQr({ qr })).toEqual({ success: false, message: "QR expired" });
    expect(await payQr({ qr, outcome: "decline" })).toEqual({ success: false, message: "QR expired" });
    expect(await ledger(app, request.AccountId)).toEqual([]);
    expect(bank.notificationsOf(request.InvoiceId)).toEqual([]);
    expect(await dataOf(api.dev.sandbox.sbp.qr.get({ query: { qr } }))).toMatchObject({ isExpired: true });
  });

  test("an unknown QR is refused as not found, for the page and for paying", async () => {
    for (const call of [
      api.dev.sandbox.sbp.pay.post({ qr: "AS000000000000000000000000000000" }),
      api.dev.sandbox.sbp.qr.get({ query: { qr: "nothing-here" } }),
    ])
      expect(await refusalOf(call)).toMatchObject({ status: 404, code: "sbp_qr_not_found" });
  });
});

describe("SBP payments in the gateway's look-ups, refunds and the ledger", () => {
  test("find and list show an SBP payment with PaymentMethod Sbp and no card; its refund is done and notified after its answer", async () => {
    const { request, model } = await bank.openQr({ Amount: 250, JsonData: receiptFor(250) });
    await payQr({ qr: String(model.ProviderQrId) });
    for (const path of ["/v2/payments/find", "/payments/find"]) {
      const found = (await bank.gatewayCall(path, { InvoiceId: request.InvoiceId })).body;
      expect(found).toMatchObject({
        Success: true,
        Model: {
          TransactionId: model.TransactionId,
          Status: "Completed",
          StatusCode: 3,
          PaymentMethod: "Sbp",
        },
      });
      expect(withoutCard(found.Model ?? {})).toEqual([]);
    }
    const day = new Date(context.clock.now()).toISOString().slice(0, 10);
    const listed = (await bank.gatewayCall("/payments/list", { Date: day })).body.Model as unknown as {
      TransactionId: number;
      PaymentMethod?: string;
    }[];
    expect(listed.find(({ TransactionId }) => TransactionId === model.TransactionId)?.PaymentMethod).toBe(
      "Sbp",
    );

    const refund = await bank.gatewayCall("/payments/refund", {
      TransactionId: model.TransactionId,
      Amount: 250,
      JsonData: receiptFor(250),
    });
    // Accepted by the answer; the payer's bank makes the transfer after it.
    expect(refund.body).toMatchObject({
      Success: true,
      Model: { Status: "Pending", PaymentMethod: "Sbp" },
    });
    const refundId = String(refund.body.Model?.TransactionId);
    expect(bank.notificationsOf(request.InvoiceId).map(({ kind }) => kind)).not.toContain("refund");
    await sandbox.sbp.settled();
    expect(bank.notificationsOf(request.InvoiceId).at(-1)).toMatchObject({
      kind: "refund",
      TransactionId: refundId,
      PaymentTransactionId: String(model.TransactionId),
      OperationType: "Refund",
      PaymentMethod: "Sbp",
    });
    expect(
      (await ledger(app, request.AccountId)).map(({ kind, method, status }) => [kind, method, status]),
    ).toEqual([
      ["payment", "sbp", "Completed"],
      ["refund", "sbp", "Completed"],
    ]);
    // Refunded in full: a second refund has nothing left to return.
    expect(
      (await bank.gatewayCall("/payments/refund", { TransactionId: model.TransactionId, Amount: 1 })).body,
    ).toMatchObject({
      Success: false,
    });
  });

  test("a refund a stopped bank left Pending is done, and notified, when the bank opens again", async () => {
    const { request, model } = await bank.openQr({ Amount: 120, JsonData: receiptFor(120) });
    await payQr({ qr: String(model.ProviderQrId) });
    const quiet: HttpClient = {
      fetch: async () => Response.json({ code: 0 }),
      attachLoopback: () => undefined,
    };
    const settings = {
      apiSecret: context.config.cloudPaymentsApiSecret,
      notificationUrl: "http://shop.invalid",
    };
    const stopped = createSandboxGateway(sandbox.ledger, context.clock, quiet, settings);
    // Its answer never counts as given: the bank stopped before the transfer was made.
    const answer = await stopped.refund(
      { TransactionId: Number(model.TransactionId), Amount: 120, JsonData: receiptFor(120) },
      new Promise(() => {}),
    );
    expect(answer).toMatchObject({ Success: true, Model: { Status: "Pending" } });
    const refundStatus = async () =>
      (await ledger(app, request.AccountId)).find((entry) => entry.kind === "refund")?.status;
    expect(await refundStatus()).toBe("Pending");
    const reopened = createSandboxGateway(sandbox.ledger, context.clock, quiet, settings);
    await reopened.sbp.settled();
    expect(await refundStatus()).toBe("Completed");
  });

  test("card payments say method card in the ledger", async () => {
    const customer = await signIn(app, "sbp-ledger-card@example.com");
    const options = await order(app, customer, 1, 30);
    expect((await payWithCard(app, options.invoiceId, cards.success)).success).toBe(true);
    const entries = await ledger(app, options.accountId);
    expect(entries.map(({ method }) => method)).toEqual(["card"]);
  });
});

describe("the transaction ids a QR reserves", () => {
  test("come from the one counter of the ledger, also in a file opened again", () => {
    const folder = mkdtempSync(join(tmpdir(), "sbp-ledger-"));
    const path = join(folder, "sandbox-gateway.db");
    try {
      const reserved: number[] = [];
      for (let opening = 0; opening < 3; opening++) {
        const file = openLedger(path);
        reserved.push(ledgerTransactions.reserveId(file));
        const counters = file.query("SELECT seq FROM sqlite_sequence WHERE name = 'transactions'").all();
        expect(counters).toEqual([{ seq: reserved.at(-1) }]);
        // A ledger written before the fix gained a counter row each time it was opened.
        file.run("INSERT INTO sqlite_sequence (name, seq) VALUES ('transactions', 1000000)");
        file.close();
      }
      expect(reserved).toEqual([1000001, 1000002, 1000003]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
