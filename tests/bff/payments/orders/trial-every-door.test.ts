import { describe, expect, test } from "vitest";
import { refundRefusedTrials } from "../../../../bff/modules/payments/refunds/refused-trial-refunds";
import { addMonths } from "../../../../core/calendar";
import { apiOf, dataOf, identityOf, refusalOf, sessionOf, staffOf } from "../../../helpers/api";
import { makeTestApp } from "../../../helpers/app";
import { demoToken, type SignedIn, signIn } from "../../../helpers/customers";
import { makeOperator, tokensFor } from "../../../helpers/operators";
import {
  cards,
  ledger,
  notifyAsGateway,
  order,
  payInSandbox,
  payWithCard,
  type WidgetOptions,
} from "../../../helpers/payments";

// DESIGN §13: the 1-unit trial is once per customer and once per card through every door:
// an anonymous purchase bound later, and Pay as well as Check.

const { app, context, clock } = await makeTestApp();
const secret = context.config.cloudPaymentsApiSecret;
const dayMs = 86_400_000;
let tokens = 0;

const api = apiOf(app);

type Card = { firstSix: string; lastFour: string; expiry: string };
const inLanguage = (language: string, cookie?: string) => ({
  headers: { cookie: [cookie, `i18next=${language}`].filter(Boolean).join("; ") },
});

const profileOf = async (customer: SignedIn) =>
  (await dataOf(api.profile.post(identityOf(customer), sessionOf(customer)))).userInfo;

/** A signed gateway notification carrying the card as CloudPayments describes it; answers its code. */
async function notify(
  kind: "check" | "pay",
  options: WidgetOptions,
  card: Card,
  transactionId: string,
  email?: string,
) {
  const answer = await notifyAsGateway(app, secret, kind, {
    ...(email ? { Email: email } : {}),
    TransactionId: transactionId,
    Amount: options.amount.toFixed(2),
    Currency: "RUB",
    InvoiceId: options.invoiceId,
    AccountId: options.accountId,
    Token: `tk_${card.lastFour}_${transactionId}`,
    CardFirstSix: card.firstSix,
    CardLastFour: card.lastFour,
    CardExpDate: card.expiry,
    Status: "Completed",
  });
  return answer.code;
}

/** The gateway's refund calls, answered as the bank would; the sandbox holds no hand-made transactions. */
function recordRefundCalls() {
  const calls: { transactionId: string; amount: number }[] = [];
  const original = context.payments.gateway.refund;
  context.payments.gateway.refund = async (transactionId, amount) => {
    calls.push({ transactionId, amount });
    return { Success: true, Message: null };
  };
  return {
    calls,
    restore: () => {
      context.payments.gateway.refund = original;
    },
  };
}

async function orderStatus(invoiceId: string, language = "en") {
  return dataOf(api.shop.orderStatus.post({ invoiceId }, inLanguage(language)));
}

/** An anonymous /instantPay purchase (the 1-unit trial unless `fullPrice`), paid in the sandbox. */
async function anonymousPurchase(
  options: { period?: number; tariff?: number; fullPrice?: boolean; expiry?: string } = {},
) {
  const prepaidToken = `${"a1b2c3".repeat(5)}${++tokens}_${options.period ?? 30}_${options.tariff ?? 1}`;
  const widget = await dataOf(
    api.shop.order.post({
      prepaidToken,
      tariff: options.tariff ?? 1,
      period: options.period ?? 30,
      ...(options.fullPrice ? { fullPrice: true } : {}),
    }),
  );
  const paid = await payInSandbox(app, {
    invoiceId: widget.invoiceId,
    cardNumber: cards.success,
    ...(options.expiry ? { expiry: options.expiry } : {}),
  });
  expect(paid.body.success).toBe(true);
  return { prepaidToken, widget };
}

/** /api/register with the purchase, as the client sends it after "attach" is confirmed. */
async function attach(email: string, prepaidToken: string, language = "en") {
  const token = await demoToken(app, email);
  return dataOf(api.register.post({ ...token, period: 30, tariff: 1, prepaidToken }, inLanguage(language)));
}

async function preview(customer: SignedIn, prepaidToken: string, language = "en") {
  return dataOf(
    api.shop.prepaidPreview.post(
      { ...identityOf(customer), prepaidToken },
      inLanguage(language, customer.cookie),
    ),
  );
}

describe("an anonymous 1-unit purchase never gives an account a second trial", () => {
  test("bound to an account that had its trial: refused with the reason, the 1 unit refunded, access unchanged", async () => {
    const customer = await signIn(app, "had-trial-then-prepaid@example.com");
    expect((await payWithCard(app, (await order(app, customer)).invoiceId, cards.success)).success).toBe(
      true,
    );
    const before = await profileOf(customer);
    expect(before.subscriptionStatus).toBe("ACTIVE");

    const { prepaidToken, widget } = await anonymousPurchase({ period: 30 });
    // The dialog says so before the click.
    const told = await preview(customer, prepaidToken, "ru");
    expect(told).toMatchObject({ outcome: "refused", isRefundOnConfirm: true });
    expect(told.reason).toMatch(/пробный период/);

    const answer = await attach(customer.email, prepaidToken, "ru");
    expect(answer.prepaid?.bound).toBe(false);
    expect(answer.prepaid?.reason).toMatch(/пробный период/);
    expect(answer.prepaid?.reason).toMatch(/вернётся/);
    const after = await profileOf(customer);
    expect(after).toEqual(before);

    // The bank got the refund of exactly what it took, on the purchase's own transaction.
    const entries = await ledger(app, widget.accountId);
    expect(entries.filter((entry) => entry.kind === "refund").map((entry) => entry.amount)).toEqual([1]);
    const stored = await context.database.get<{ status: string; user_id: number | null }>(
      "SELECT status, user_id FROM payments WHERE prepaid_token = ?",
      [prepaidToken],
    );
    expect(stored).toEqual({ status: "refunded", user_id: null });
    // Asking again changes nothing and refunds nothing more.
    expect((await attach(customer.email, prepaidToken)).prepaid?.bound).toBe(false);
    expect((await ledger(app, widget.accountId)).filter((entry) => entry.kind === "refund")).toHaveLength(1);
  });

  test("the refused purchase's card is given back: no trial was given with it", async () => {
    const customer = await signIn(app, "had-trial-card-back@example.com");
    await payWithCard(app, (await order(app, customer)).invoiceId, cards.success);
    const { prepaidToken } = await anonymousPurchase({ expiry: "07/41" });
    expect((await attach(customer.email, prepaidToken)).prepaid?.bound).toBe(false);

    const newcomer = await signIn(app, "fresh-with-returned-card@example.com");
    const widget = await order(app, newcomer);
    const paid = await payInSandbox(app, {
      invoiceId: widget.invoiceId,
      cardNumber: cards.success,
      expiry: "07/41",
    });
    expect(paid.body.success).toBe(true);
    expect((await profileOf(newcomer)).subscriptionStatus).toBe("ACTIVE");
  });

  test("a full-price anonymous purchase adds the tariff's months to an active account's end", async () => {
    const customer = await signIn(app, "active-gets-months@example.com");
    await payWithCard(app, (await order(app, customer)).invoiceId, cards.success);
    const before = Date.parse((await profileOf(customer)).expirationDate ?? "");

    const { prepaidToken, widget } = await anonymousPurchase({ tariff: 6, period: 7, fullPrice: true });
    expect(widget).toMatchObject({ trial: false, amount: 600 });
    const told = await preview(customer, prepaidToken);
    expect(told).toMatchObject({ outcome: "extends", months: 6 });
    expect(Date.parse(told.until ?? "")).toBe(addMonths(before, 6));

    const answer = await attach(customer.email, prepaidToken);
    expect(answer).toMatchObject({ subscriptionIsActive: true, prepaid: { bound: true } });
    expect(Date.parse(answer.expirationDate ?? "")).toBe(addMonths(before, 6));
  });

  test("a 1-unit purchase starts a new account's trial of the days bought, as the preview said", async () => {
    const { prepaidToken } = await anonymousPurchase({ period: 12 });
    const customer = await signIn(app, "new-account-trial-days@example.com");
    const told = await preview(customer, prepaidToken);
    expect(told).toMatchObject({ outcome: "starts", days: 12 });
    const answer = await attach(customer.email, prepaidToken);
    expect(answer.prepaid?.bound).toBe(true);
    expect(Math.abs(Date.parse(answer.expirationDate ?? "") - Date.parse(told.until ?? ""))).toBeLessThan(
      dayMs / 24,
    );
  });
});

describe("the trial is once per card at Pay as well as at Check", () => {
  test("two payments with one card whose Checks both pass before either Pay make one trial; the other is refunded", async () => {
    const refundsSent = recordRefundCalls();
    try {
      const card = { firstSix: "220220", lastFour: "7788", expiry: "05/31" };
      const anna = await signIn(app, "race-anna@example.com");
      const boris = await signIn(app, "race-boris@example.com");
      const annaOrder = await order(app, anna);
      const borisOrder = await order(app, boris);
      expect(await notify("check", annaOrder, card, "71000001")).toBe(0);
      expect(await notify("check", borisOrder, card, "71000002")).toBe(0);
      // Both Pays at once: on PostgreSQL two transactions race for the card's claim.
      const codes = await Promise.all([
        notify("pay", annaOrder, card, "71000001"),
        notify("pay", borisOrder, card, "71000002"),
      ]);
      expect(codes).toEqual([0, 0]);

      const statuses = [
        (await profileOf(anna)).subscriptionStatus,
        (await profileOf(boris)).subscriptionStatus,
      ];
      expect(statuses.sort()).toEqual(["ACTIVE", "NOT_ACTIVE"]);
      const [winner, loser] = statuses[0] === "ACTIVE" ? [anna, boris] : [boris, anna];
      expect((await profileOf(winner)).subscriptionStatus).toBe("ACTIVE");
      const loserOrder = loser === anna ? annaOrder : borisOrder;
      const loserTransaction = loser === anna ? "71000001" : "71000002";

      // The bank took 1 unit from the loser: it goes back, and the screen can say why.
      expect(refundsSent.calls).toEqual([{ transactionId: loserTransaction, amount: 1 }]);
      const status = await orderStatus(loserOrder.invoiceId, "kk");
      expect(status).toMatchObject({
        status: "refunded",
        trialRefused: "card",
        fullPrice: { amount: 150, currency: "RUB", tariff: 1, period: 30 },
      });
      expect(status.reason).toMatch(/карта/);
      // The refused payment is not the loser's trial: another card may still start one.
      const shop = await dataOf(api.shop.getShop.post(identityOf(loser), sessionOf(loser)));
      expect(shop.trial).toBe(true);
      // The winner's access is not touched by the loser's refund.
      expect((await profileOf(winner)).subscriptionStatus).toBe("ACTIVE");
    } finally {
      refundsSent.restore();
    }
  });

  test("two anonymous purchases with one card: the second bought nothing, and binding it says why", async () => {
    const refundsSent = recordRefundCalls();
    try {
      const card = { firstSix: "220220", lastFour: "9911", expiry: "08/32" };
      const buy = async (suffix: string) => {
        const prepaidToken = `${"c0ffee".repeat(5)}${suffix}_30_1`;
        const widget = await dataOf(api.shop.order.post({ prepaidToken, tariff: 1, period: 30 }));
        return { prepaidToken, widget };
      };
      const first = await buy("1");
      const second = await buy("2");
      expect(await notify("check", first.widget, card, "72000001")).toBe(0);
      expect(await notify("check", second.widget, card, "72000002")).toBe(0);
      expect(await notify("pay", first.widget, card, "72000001")).toBe(0);
      expect(await notify("pay", second.widget, card, "72000002")).toBe(0);
      expect(refundsSent.calls).toEqual([{ transactionId: "72000002", amount: 1 }]);

      const answer = await attach("second-anonymous@example.com", second.prepaidToken);
      expect(answer).toMatchObject({ subscriptionIsActive: false, prepaid: { bound: false } });
      expect(answer.prepaid?.reason).toMatch(/had already had a trial/);
      expect((await attach("first-anonymous@example.com", first.prepaidToken)).prepaid?.bound).toBe(true);
    } finally {
      refundsSent.restore();
    }
  });

  test("a refund the gateway did not take at once goes out in a later pass, once", async () => {
    const card = { firstSix: "220220", lastFour: "3131", expiry: "11/33" };
    const first = await signIn(app, "sweep-first@example.com");
    const second = await signIn(app, "sweep-second@example.com");
    const firstOrder = await order(app, first);
    const secondOrder = await order(app, second);
    expect(await notify("check", firstOrder, card, "75000001")).toBe(0);
    expect(await notify("check", secondOrder, card, "75000002")).toBe(0);
    expect(await notify("pay", firstOrder, card, "75000001")).toBe(0);
    const original = context.payments.gateway.refund;
    context.payments.gateway.refund = async () => ({ Success: false, Message: "Try later" });
    try {
      expect(await notify("pay", secondOrder, card, "75000002")).toBe(0);
    } finally {
      context.payments.gateway.refund = original;
    }
    expect((await orderStatus(secondOrder.invoiceId)).status).toBe("completed");

    const refundsSent = recordRefundCalls();
    try {
      expect(await refundRefusedTrials(context)).toBe(1);
      expect(await refundRefusedTrials(context)).toBe(0);
      expect(refundsSent.calls).toEqual([{ transactionId: "75000002", amount: 1 }]);
      expect((await orderStatus(secondOrder.invoiceId)).status).toBe("refunded");
    } finally {
      refundsSent.restore();
    }
  });

  test("a card refused at Check: the order says why and offers the plan at its price, which the card may pay", async () => {
    const card = { firstSix: "220220", lastFour: "4455", expiry: "02/33" };
    const first = await signIn(app, "check-first@example.com");
    const firstOrder = await order(app, first);
    expect(await notify("check", firstOrder, card, "73000001")).toBe(0);
    expect(await notify("pay", firstOrder, card, "73000001")).toBe(0);

    const second = await signIn(app, "check-second@example.com", { tariff: 1, period: 30 });
    const secondOrder = await order(app, second);
    expect(await notify("check", secondOrder, card, "73000002")).toBe(13);
    const status = await orderStatus(secondOrder.invoiceId, "ru");
    expect(status).toMatchObject({ trialRefused: "card", fullPrice: { amount: 150, tariff: 1, period: 30 } });
    expect(status.reason).toMatch(/деньги не списаны/);

    const fullOrder = await dataOf(
      api.shop.order.post(
        { ...identityOf(second), tariff: 1, period: 30, fullPrice: true },
        sessionOf(second),
      ),
    );
    expect(fullOrder).toMatchObject({ trial: false, amount: 150 });
    expect(await notify("check", fullOrder, card, "73000003")).toBe(0);
    expect(await notify("pay", fullOrder, card, "73000003")).toBe(0);
    const profile = await profileOf(second);
    expect(profile.subscriptionStatus).toBe("ACTIVE");
    expect(Date.parse(profile.expirationDate ?? "") - clock.now()).toBeGreaterThan(27 * dayMs);
  });

  test("a customer refused at Check: the order says nothing was charged, and the bank holds no charge for it", async () => {
    const customer = await signIn(app, "check-customer@example.com");
    // Two first orders opened side by side (two tabs): the first paid, the second refused at Check.
    const firstOrder = await order(app, customer);
    const secondOrder = await order(app, customer);
    expect(secondOrder.invoiceId).not.toBe(firstOrder.invoiceId);
    expect((await payWithCard(app, firstOrder.invoiceId, cards.success)).success).toBe(true);
    const refused = await payWithCard(app, secondOrder.invoiceId, cards.success);
    expect(refused).toMatchObject({ success: false, checkCode: 13 });

    // The bank declined the second without taking anything: its one charge is the first order's.
    const entries = await ledger(app, firstOrder.accountId);
    const charged = entries.filter((entry) => entry.kind === "payment" && entry.status === "Completed");
    expect(charged.map((entry) => entry.invoiceId)).toEqual([firstOrder.invoiceId]);
    expect(entries.find((entry) => entry.invoiceId === secondOrder.invoiceId)?.status).toBe("Declined");
    for (const [language, words] of [
      ["en", /nothing was charged/],
      ["ru", /деньги не списаны/],
      ["zh", /未扣任何款项/],
      ["kk", /ақша алынбады/],
    ] as const) {
      const status = await orderStatus(secondOrder.invoiceId, language);
      expect(status).toMatchObject({ trialRefused: "customer", fullPrice: { amount: 150, tariff: 1 } });
      expect(status.reason, language).toMatch(words);
      expect(status.reason, language).not.toMatch(/goes back|возвращается|退回|қайтарылады/);
    }
  });

  test("an order that nobody refused says only its status; an unknown one is 404", async () => {
    const customer = await signIn(app, "plain-status@example.com");
    const widget = await order(app, customer);
    expect(await orderStatus(widget.invoiceId)).toEqual({ status: "pending" });
    const missing = await refusalOf(api.shop.orderStatus.post({ invoiceId: "first-nothing" }));
    expect(missing.status).toBe(404);
  });
});

describe("a paid anonymous purchase is never lost", () => {
  test('after "Not now" at sign-in, the cabinet attaches it with the session', async () => {
    const { prepaidToken } = await anonymousPurchase({ period: 9 });
    const customer = await signIn(app, "attach-later@example.com");
    expect((await profileOf(customer)).subscriptionStatus).toBe("NOT_ACTIVE");
    const attach = () =>
      api.shop.attachPrepaid.post({ ...identityOf(customer), prepaidToken }, sessionOf(customer));
    const anonymous = await refusalOf(api.shop.attachPrepaid.post({ ...identityOf(customer), prepaidToken }));
    expect(anonymous.status).toBe(401);

    expect(await dataOf(attach())).toMatchObject({ bound: true, subscriptionIsActive: true });
    expect((await profileOf(customer)).subscriptionStatus).toBe("ACTIVE");
    expect((await dataOf(attach())).bound).toBe(true);
  });

  test("support finds one not attached to any account by the payer's e-mail or its transaction id", async () => {
    await makeOperator(context, "support.unbound", "support");
    const staff = staffOf(
      (await tokensFor(app, "support.unbound", "correct horse battery staple")).accessToken,
    );
    const search = (part: string) =>
      dataOf(api.panel.users.search.post({}, { ...staff, query: { emailPart: part } }));

    const prepaidToken = `${"beef00".repeat(5)}1_30_1`;
    const widget = await dataOf(api.shop.order.post({ prepaidToken, tariff: 1, period: 30 }));
    const card = { firstSix: "220220", lastFour: "6060", expiry: "03/34" };
    expect(await notify("check", widget, card, "74000001")).toBe(0);
    expect(await notify("pay", widget, card, "74000001", "Lost.Buyer@Example.com")).toBe(0);

    const byEmail = await search("lost.buyer@example");
    expect(byEmail.content).toEqual([]);
    expect(byEmail.unboundPurchases).toEqual([
      expect.objectContaining({
        transactionId: "74000001",
        amount: 1,
        email: "Lost.Buyer@Example.com",
        isTrial: true,
      }),
    ]);
    expect((await search("74000001")).unboundPurchases).toHaveLength(1);

    // Once attached it is the account's, found as the customer.
    expect((await attach("lost.buyer@example.com", prepaidToken)).prepaid?.bound).toBe(true);
    const after = await search("lost.buyer@example");
    expect(after.unboundPurchases).toEqual([]);
    expect(after.content).toHaveLength(1);
  });
});
