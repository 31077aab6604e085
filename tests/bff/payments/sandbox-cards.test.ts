import { describe, expect, test } from "vitest";
import { parseNotification } from "../../../bff/adapters/cloudpayments/notification";
import { approvingCards } from "../../../bff/adapters/sandbox/cards";
import { apiOf } from "../../helpers/api";
import { makeTestApp, postJson } from "../../helpers/app";
import { signIn } from "../../helpers/customers";
import { cards, order, passDays, payInSandbox } from "../../helpers/payments";

// DESIGN §6 and §11: the sandbox describes cards as the real gateway does (first six,
// last four, expiry "MM/YY") in its notifications and models; the same number and expiry
// are the same card, and a payment naming no expiry is made with a card of its own.

const { app, context } = await makeTestApp();

/** Every notification the sandbox sends to our endpoints, decoded. */
const sent: { kind: string; fields: Record<string, string> }[] = [];
const deliver = context.http.fetch.bind(context.http);
context.http.fetch = async (request) => {
  if (request.url.includes("/api/payments/cloudpayments/")) {
    const fields = Object.fromEntries(new URLSearchParams(await request.clone().text()));
    sent.push({ kind: request.url.split("/").at(-1) ?? "", fields });
  }
  return deliver(request);
};
const notificationsOf = (invoiceId: string) =>
  sent
    .filter(({ fields }) => fields.InvoiceId === invoiceId)
    .map(({ kind, fields }) => ({ kind, ...fields }));

const credentials = () =>
  `Basic ${btoa(`${context.payments.gateway.publicId}:${context.config.cloudPaymentsApiSecret}`)}`;

/**
 * The sandbox gateway's own API, as a client library calls it. Its routes declare no answer
 * schema (the typed client reads their answers as unknown), so the answer is read here as
 * the gateway documents it.
 */
async function gatewayCall(path: string, body: unknown) {
  const response = await app.handle(
    postJson(`/api/dev/sandbox/cloudpayments${path}`, body, { authorization: credentials() }),
  );
  return { status: response.status, body: (await response.json()) as { Model?: Record<string, unknown> } };
}

/** A new customer's first payment, made with `card` (and `expiry`, if given). */
async function pay(email: string, card: string, expiry?: string) {
  const customer = await signIn(app, email);
  const options = await order(app, customer, 1, 30);
  const paid = await payInSandbox(app, { invoiceId: options.invoiceId, cardNumber: card, expiry });
  const found = await gatewayCall("/v2/payments/find", { InvoiceId: options.invoiceId });
  return { options, paid, model: found.body.Model ?? {} };
}

const cardOf = (model: Record<string, unknown>) => ({
  token: model.Token,
  firstSix: model.CardFirstSix,
  lastFour: model.CardLastFour,
  expiry: model.CardExpDate,
});

describe("card data like the real gateway's", () => {
  test("Check and Pay, and Check and Fail, describe the card: first six, last four, expiry", async () => {
    const paid = await pay("card-fields@example.com", cards.success, "04/29");
    expect(paid.paid.body).toMatchObject({ success: true });
    const card = { CardFirstSix: "424242", CardLastFour: "4242", CardExpDate: "04/29" };
    expect(notificationsOf(paid.options.invoiceId)).toEqual([
      expect.objectContaining({ kind: "check", ...card }),
      expect.objectContaining({ kind: "pay", ...card, Token: paid.model.Token }),
    ]);
    const declined = await pay("card-fields-declined@example.com", cards.declined, "11/27");
    expect(notificationsOf(declined.options.invoiceId)).toEqual([
      expect.objectContaining({
        kind: "check",
        CardFirstSix: "401288",
        CardLastFour: "1881",
        CardExpDate: "11/27",
      }),
      expect.objectContaining({
        kind: "fail",
        CardFirstSix: "401288",
        CardLastFour: "1881",
        CardExpDate: "11/27",
      }),
    ]);
  });

  test("the same number and expiry are one card: one token and the same card data", async () => {
    const first = await pay("same-card-1@example.com", cards.success, "07/31");
    // Our Check knows that card had its trial: a second trial with it is refused (code 13).
    const refused = await pay("same-card-2@example.com", cards.success, "07/31");
    expect(refused.paid.body).toMatchObject({ success: false, checkCode: 13 });
    // The sandbox's own charge of that card (as with a saved card) names it the same way.
    const second = await gatewayCall("/payments/tokens/charge", {
      Amount: 1,
      Currency: "RUB",
      AccountId: first.options.accountId,
      Token: first.model.Token,
      InvoiceId: `same-card-charge-${Date.now()}`,
      Description: "same card",
    });
    expect(cardOf(first.model)).toEqual({
      token: expect.stringMatching(/^tk_/),
      firstSix: "424242",
      lastFour: "4242",
      expiry: "07/31",
    });
    expect(cardOf(second.body.Model ?? {})).toEqual(cardOf(first.model));
    // Another expiry of the same number is another card.
    const other = await pay("same-card-3@example.com", cards.success, "08/31");
    expect(other.model.Token).not.toBe(first.model.Token);
  });

  test("without an expiry every payment is made with a card of its own", async () => {
    const first = await pay("own-card-1@example.com", cards.success);
    const second = await pay("own-card-2@example.com", cards.success);
    for (const { model } of [first, second]) {
      expect(cardOf(model)).toMatchObject({ firstSix: "424242", lastFour: "4242" });
      expect(model.CardExpDate).toMatch(/^(0[1-9]|1[0-2])\/\d{2}$/);
    }
    expect(second.model.Token).not.toBe(first.model.Token);
    expect(second.model.CardExpDate).not.toBe(first.model.CardExpDate);
  });

  test("a token charge answers and notifies with the saved card's data", async () => {
    const { options, model } = await pay("renewal-card@example.com", cards.success, "05/30");
    const card = { CardFirstSix: "424242", CardLastFour: "4242", CardExpDate: "05/30" };
    const charged = await gatewayCall("/payments/tokens/charge", {
      Amount: 10,
      Currency: "RUB",
      AccountId: options.accountId,
      Token: model.Token,
      InvoiceId: "card-data-charge",
      Description: "a charge made by a client library",
    });
    expect(charged.body).toMatchObject({ Success: true, Model: { ...card, Token: model.Token } });
    await passDays(app, 30.1);
    const renewal = sent.find(
      ({ kind, fields }) =>
        kind === "pay" && fields.InvoiceId?.startsWith("renewal-") && fields.AccountId === options.accountId,
    );
    expect(renewal?.fields).toMatchObject(card);
    const found = await gatewayCall("/v2/payments/find", { InvoiceId: renewal?.fields.InvoiceId });
    expect(found.body.Model).toMatchObject(card);
  });

  test("an expiry that is not MM/YY is refused with a clear 400, and nothing is sent or charged", async () => {
    const customer = await signIn(app, "bad-expiry@example.com");
    const options = await order(app, customer, 1, 30);
    for (const expiry of ["13/30", "4/29", "0429", "04/2029", "00/30"]) {
      const answer = await payInSandbox(app, {
        invoiceId: options.invoiceId,
        cardNumber: cards.success,
        expiry,
      });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({
        error: { message: expect.stringMatching(/must be MM\/YY.*"04\/29"/) },
      });
    }
    expect(notificationsOf(options.invoiceId)).toEqual([]);
  });

  test("our notification parser reads the card's first six, last four and expiry", () => {
    const body = new URLSearchParams({
      TransactionId: "1000001",
      Amount: "1.00",
      CardFirstSix: "424242",
      CardLastFour: "4242",
      CardExpDate: "04/29",
    }).toString();
    expect(
      parseNotification(new TextEncoder().encode(body), "application/x-www-form-urlencoded"),
    ).toMatchObject({
      CardFirstSix: "424242",
      CardLastFour: "4242",
      CardExpDate: "04/29",
    });
  });
});

describe("POST /payments/find", () => {
  test("answers exactly like /v2/payments/find, found or not, and asks for the same credentials", async () => {
    const { options } = await pay("find-older@example.com", cards.success, "09/28");
    for (const InvoiceId of [options.invoiceId, "no-such-invoice"]) {
      const older = await gatewayCall("/payments/find", { InvoiceId });
      const v2 = await gatewayCall("/v2/payments/find", { InvoiceId });
      expect(older.status).toBe(200);
      expect(older.body).toEqual(v2.body);
    }
    expect((await gatewayCall("/payments/find", { InvoiceId: options.invoiceId })).body).toMatchObject({
      Success: true,
      Model: { InvoiceId: options.invoiceId, Status: "Completed", CardExpDate: "09/28" },
    });
    const anonymous = await apiOf(app).dev.sandbox.cloudpayments.payments.find.post({
      InvoiceId: options.invoiceId,
    });
    expect(anonymous.status).toBe(401);
  });
});

describe("approving test numbers", () => {
  test("every published approving number pays the first payment and its renewals, as its own card", async () => {
    const cardsSeen = new Set<string>();
    for (const [index, number] of approvingCards.entries()) {
      const { paid, model } = await pay(`approving-${index}@example.com`, number, "11/30");
      expect(paid.body, number).toMatchObject({ success: true });
      expect(model).toMatchObject({ CardFirstSix: number.slice(0, 6), CardLastFour: number.slice(-4) });
      cardsSeen.add(`${model.CardFirstSix}|${model.CardLastFour}`);
    }
    // Distinct first six and last four: each is a card with 1,200 trials of its own.
    expect(cardsSeen.size).toBe(approvingCards.length);
    await passDays(app, 31);
    const renewals = await context.database.all<{ status: string }>(
      "SELECT p.status FROM payments p JOIN users u ON u.id = p.user_id WHERE p.kind = 'renewal' AND u.email LIKE 'approving-%'",
    );
    expect(renewals.map((row) => row.status)).toEqual(approvingCards.map(() => "completed"));
  });
});
