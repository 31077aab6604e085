import { describe, expect, test } from "vitest";
import type { CustomerReceipt } from "../../../../bff/adapters/cloudpayments/receipt";
import { receiptLabel } from "../../../../bff/modules/payments/receipts/receipt";
import { loadConfig } from "../../../../bff/platform/config";
import { apiOf, dataOf, identityOf, sessionOf, staffOf } from "../../../helpers/api";
import { makeTestApp } from "../../../helpers/app";
import { signIn } from "../../../helpers/customers";
import { makeOperator, tokensFor } from "../../../helpers/operators";
import {
  advanceDays,
  cards,
  ledger,
  order,
  passDays,
  payInSandbox,
  payWithCard,
} from "../../../helpers/payments";

// DESIGN §13, fiscal receipts (54-FZ): every charge and refund request carries the
// receipt in JsonData.CloudPayments.CustomerReceipt, the widget gets it in `data`, and
// the sandbox bank keeps each transaction's receipt in its ledger.

const { app, context } = await makeTestApp();
const api = apiOf(app);

/** What a receipt of one line, paid in full by card, must say. */
function expectedReceipt(
  label: string,
  amount: number,
  email?: string,
  taxationSystem = 1,
  vat: number | null = null,
) {
  return {
    Items: [{ label, price: amount, quantity: 1, amount, vat, method: 4, object: 4 }],
    taxationSystem,
    ...(email ? { email } : {}),
    amounts: { electronic: amount },
  };
}

/**
 * The sandbox gateway's own API, with the shop's Public ID and API secret, as a client
 * library calls it. Its routes declare no answer schema, so the client types their
 * answers as unknown: they are only matched against what the gateway says.
 */
const gateway = api.dev.sandbox.cloudpayments.payments;
const credentials = btoa(`${context.payments.gateway.publicId}:${context.config.cloudPaymentsApiSecret}`);
const gatewayCredentials = { headers: { authorization: `Basic ${credentials}` } };
type ChargeBody = Parameters<typeof gateway.tokens.charge.post>[0];
const chargeAtGateway = (body: ChargeBody) => dataOf(gateway.tokens.charge.post(body, gatewayCredentials));
const refundAtGateway = (body: Parameters<typeof gateway.refund.post>[0]) =>
  dataOf(gateway.refund.post(body, gatewayCredentials));

async function paidCustomer(email: string, tariff = 1) {
  const customer = await signIn(app, email);
  const options = await order(app, customer, tariff, 30);
  expect((await payWithCard(app, options.invoiceId, cards.success)).success).toBe(true);
  const token = (
    await context.database.get<{ card_token: string }>(
      "SELECT card_token FROM payments WHERE invoice_id = ? AND card_token IS NOT NULL",
      [options.invoiceId],
    )
  )?.card_token;
  if (!token) throw new Error("no saved card");
  return { customer, options, token };
}

/** The same receipt for another sum: consistent in itself, wrong for the payment. */
const receiptFor = (receipt: CustomerReceipt, sum: number): CustomerReceipt => ({
  ...receipt,
  Items: receipt.Items.map((item) => ({ ...item, price: sum, amount: sum })),
  amounts: { electronic: sum },
});

describe("every payment carries its receipt", () => {
  test("a first payment's widget data has the receipt, and the bank keeps it with the payment", async () => {
    const customer = await signIn(app, "first-receipt@example.com");
    const options = await order(app, customer, 1, 30);
    const expected = expectedReceipt("Подписка Kannt на 1 месяц: пробный период 30 дней", 1, customer.email);
    expect(options.data).toEqual({ CloudPayments: { CustomerReceipt: expected } });
    await payWithCard(app, options.invoiceId, cards.success);
    const [payment] = await ledger(app, options.accountId);
    expect(payment).toMatchObject({ kind: "payment", status: "Completed", amount: 1, receipt: expected });
  });

  test("a renewal charge carries the period's receipt: tariff, amount and e-mail", async () => {
    const { customer, options } = await paidCustomer("renewal-receipt@example.com", 3);
    await passDays(app, 30.1);
    const renewal = (await ledger(app, options.accountId)).find((entry) =>
      entry.invoiceId.startsWith("renewal-"),
    );
    expect(renewal).toMatchObject({ status: "Completed", amount: 400 });
    expect(renewal?.receipt).toEqual(expectedReceipt("Подписка Kannt на 3 месяца", 400, customer.email));
  });

  test("an extra device charge carries its own receipt", async () => {
    const { customer, options } = await paidCustomer("device-receipt@example.com");
    // The rest of the trial, on the real month it falls in (core/prices.ts proRataDevicePrice).
    const { charged } = await dataOf(api.profile.addDevice.post(identityOf(customer), sessionOf(customer)));
    const device = (await ledger(app, options.accountId)).at(-1);
    expect(device).toMatchObject({ kind: "payment", amount: charged });
    expect(device?.receipt).toEqual(
      expectedReceipt(
        "Kannt: дополнительное устройство до конца оплаченного периода",
        charged,
        customer.email,
      ),
    );
  });

  test("an operator refund sends the receipt of what goes back", async () => {
    const { customer, options } = await paidCustomer("refund-receipt@example.com");
    const admin = await makeOperator(context, "receipts.admin", "admin");
    const { accessToken } = await tokensFor(app, admin.username, admin.password);
    const answer = await api.panel.refund.post(
      { email: customer.email, uid: customer.uid },
      staffOf(accessToken),
    );
    expect(answer.data).toMatchObject({ Success: true });
    const refund = (await ledger(app, options.accountId)).at(-1);
    expect(refund).toMatchObject({ kind: "refund", amount: 1 });
    expect(refund?.receipt).toEqual(
      expectedReceipt("Подписка Kannt на 1 месяц: пробный период 30 дней", 1, customer.email),
    );
  });

  test("ledger entries are dated on the test clock", async () => {
    const customer = await signIn(app, "dated-receipt@example.com");
    const options = await order(app, customer, 1, 30);
    // Far enough ahead that a date from the wall clock could not pass.
    await advanceDays(app, 40);
    const before = context.clock.now();
    await payWithCard(app, options.invoiceId, cards.success);
    const after = context.clock.now();
    const [entry] = await ledger(app, options.accountId);
    const dated = Date.parse(entry?.dateTime ?? "");
    expect(dated).toBeGreaterThanOrEqual(before);
    expect(dated).toBeLessThanOrEqual(after);
  });
});

describe("receipt lines", () => {
  test("say in Russian what was bought, in the right plural", () => {
    const line = (
      kind: "first" | "renewal" | "device",
      months: 1 | 3 | 6 | 12 | null,
      trial: number | null,
      devices = 0,
    ) =>
      receiptLabel({
        kind,
        amount: 100,
        tariff_months: months,
        trial_days: trial,
        extra_devices: devices,
        is_trial: trial === null ? 0 : 1,
      });
    expect(line("first", 6, 1)).toBe("Подписка Kannt на 6 месяцев: пробный период 1 день");
    expect(line("first", 12, 3)).toBe("Подписка Kannt на 12 месяцев: пробный период 3 дня");
    expect(line("renewal", 1, null)).toBe("Подписка Kannt на 1 месяц");
    expect(line("renewal", 12, null, 1)).toBe(
      "Подписка Kannt на 12 месяцев, включая 1 дополнительное устройство",
    );
    expect(line("renewal", 3, null, 2)).toBe(
      "Подписка Kannt на 3 месяца, включая 2 дополнительных устройства",
    );
    expect(line("renewal", 6, null, 5)).toBe(
      "Подписка Kannt на 6 месяцев, включая 5 дополнительных устройств",
    );
    expect(line("device", null, null)).toBe("Kannt: дополнительное устройство до конца оплаченного периода");
  });
});

describe("fiscal settings", () => {
  test("TAXATION_SYSTEM and RECEIPT_VAT go into every receipt", async () => {
    const configured = await makeTestApp({ TAXATION_SYSTEM: "2", RECEIPT_VAT: "22" });
    const customer = await signIn(configured.app, "osn-vat@example.com");
    const options = await order(configured.app, customer, 1, 30);
    const expected = expectedReceipt(
      "Подписка Kannt на 1 месяц: пробный период 30 дней",
      1,
      customer.email,
      2,
      22,
    );
    expect(options.data.CloudPayments.CustomerReceipt).toEqual(expected);
    await payWithCard(configured.app, options.invoiceId, cards.success);
    await apiOf(configured.app).profile.addDevice.post(identityOf(customer), sessionOf(customer));
    const receipts = (await ledger(configured.app, options.accountId)).map((entry) => entry.receipt);
    expect(receipts.map((receipt) => [receipt?.taxationSystem, receipt?.Items[0]?.vat])).toEqual([
      [2, 22],
      [2, 22],
    ]);
  });

  test("defaults are УСН «доходы» and без НДС; bad values stop the start with a clear message", () => {
    const load = (environment: Record<string, string>) =>
      loadConfig({ DATABASE_PATH: ":memory:", JWT_SECRET: "x".repeat(40), ...environment });
    expect(load({}).receipts).toEqual({ taxationSystem: 1, vat: null });
    expect(load({ TAXATION_SYSTEM: "0", RECEIPT_VAT: "none" }).receipts).toEqual({
      taxationSystem: 0,
      vat: null,
    });
    expect(load({ RECEIPT_VAT: "0" }).receipts.vat).toBe(0);
    expect(load({ RECEIPT_VAT: "122" }).receipts.vat).toBe(122);
    for (const bad of ["6", "usn", "1.0", "-1"])
      expect(() => load({ TAXATION_SYSTEM: bad })).toThrow(/TAXATION_SYSTEM must be one of 0 \(ОСН\), 1/);
    for (const bad of ["18", "20%", "null", "vat20"])
      expect(() => load({ RECEIPT_VAT: bad })).toThrow(
        /RECEIPT_VAT must be "none" \(без НДС\) or one of 0, 5/,
      );
  });
});

describe("the sandbox checks receipts as a fiscal provider would", () => {
  test("a charge whose receipt total differs from its Amount is refused and nothing is charged", async () => {
    const { customer, options, token } = await paidCustomer("wrong-total@example.com");
    const before = await ledger(app, options.accountId);
    const receipt = expectedReceipt("Подписка Kannt на 1 месяц", 150, customer.email);
    const charge: ChargeBody = {
      Amount: 150,
      Currency: "RUB",
      AccountId: options.accountId,
      Token: token,
      InvoiceId: "manual-1",
      Description: "test",
    };
    const answer = await chargeAtGateway({
      ...charge,
      JsonData: { CloudPayments: { CustomerReceipt: receiptFor(receipt, 149) } },
    });
    expect(answer).toMatchObject({
      Success: false,
      Message: expect.stringMatching(/amounts\.electronic 149\.00 differs from the Amount 150\.00/),
    });
    expect(await ledger(app, options.accountId)).toEqual(before);
    // Items that do not add up to the payment are refused too.
    const short = { ...receipt, Items: [{ ...receipt.Items[0], price: 100, amount: 100 }] };
    expect(
      await chargeAtGateway({
        ...charge,
        JsonData: { CloudPayments: { CustomerReceipt: short } },
      }),
    ).toMatchObject({
      Success: false,
      Message: expect.stringMatching(/items add up to 100\.00 but its amounts to 150\.00/),
    });
    // The same receipt, right and sent as JSON text (as some client libraries do), is taken and kept.
    const taken = await chargeAtGateway({
      ...charge,
      JsonData: JSON.stringify({ CloudPayments: { CustomerReceipt: receipt } }),
    });
    expect(taken).toMatchObject({ Success: true, Model: { Status: "Completed" } });
    expect((await ledger(app, options.accountId)).at(-1)?.receipt).toEqual(receipt);
  });

  test("a refund whose receipt differs from the refunded amount is refused", async () => {
    const { customer, options } = await paidCustomer("wrong-refund@example.com");
    const [payment] = await ledger(app, options.accountId);
    const receipt = expectedReceipt("Подписка Kannt", 1, customer.email);
    const answer = await refundAtGateway({
      TransactionId: Number(payment?.transactionId),
      Amount: 1,
      JsonData: { CloudPayments: { CustomerReceipt: receiptFor(receipt, 2) } },
    });
    expect(answer).toMatchObject({
      Success: false,
      Message: expect.stringMatching(/differs from the Amount 1\.00/),
    });
    expect((await ledger(app, options.accountId)).map((entry) => entry.kind)).toEqual(["payment"]);
  });

  test("widget data whose receipt differs from the payment is refused and the order stays unpaid", async () => {
    const customer = await signIn(app, "wrong-widget@example.com");
    const options = await order(app, customer, 1, 30);
    const receipt = options.data.CloudPayments.CustomerReceipt;
    const paid = await payInSandbox(app, {
      invoiceId: options.invoiceId,
      cardNumber: cards.success,
      data: { CloudPayments: { CustomerReceipt: receiptFor(receipt, 2) } },
    });
    expect(paid.body).toMatchObject({
      success: false,
      message: expect.stringMatching(/differs from the Amount/),
    });
    expect(await ledger(app, options.accountId)).toEqual([]);
    const status = (
      await context.database.get<{ status: string }>("SELECT status FROM payments WHERE invoice_id = ?", [
        options.invoiceId,
      ])
    )?.status;
    expect(status).toBe("pending");
  });
});
