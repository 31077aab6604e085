import { describe, expect, test } from "vitest";
import { apiOf, dataOf, identityOf, sessionOf } from "../../../helpers/api";
import { makeTestApp, request } from "../../../helpers/app";
import { fixture, referralCodeOf, type SignedIn, signIn } from "../../../helpers/customers";
import { cards, order, passDays, payWithCard } from "../../../helpers/payments";
import { payQr, sbpOrder } from "../../../helpers/sbp";
import { yooKassaCardCustomer } from "../../../helpers/yookassa";

const world = await makeTestApp();
const { app, context } = world;

const historyOf = (customer: SignedIn) =>
  dataOf(apiOf(app).profile.payments.post(identityOf(customer), sessionOf(customer)));

// A receipt is an HTML page, not JSON: it is fetched raw.
const receipt = (customer: SignedIn | undefined, url: string) =>
  app.handle(request(url, { headers: customer ? { cookie: customer.cookie } : {} }));

async function paidCustomer(email: string, card: string) {
  const customer = await signIn(app, email);
  const options = await order(app, customer, 1, 30);
  expect((await payWithCard(app, options.invoiceId, card)).success).toBe(true);
  return customer;
}

// Two customers a month apart in their lives: one renews, one's renewal is declined.
const renewing = await paidCustomer("history@example.com", cards.success);
const declining = await paidCustomer("declined@example.com", cards.firstThenDeclined);
// An order opened and never paid moves no money: it is not a payment to list.
await order(app, await signIn(app, "browsing@example.com"), 1, 30);
await passDays(app, 30.5);
const [renewingNow, decliningNow] = [await signIn(app, renewing.email), await signIn(app, declining.email)];

describe("the cabinet's payment history", () => {
  test("lists the customer's own payments, newest first, with amount, purpose, status and receipt", async () => {
    const history = await historyOf(renewingNow);
    expect(history).toMatchObject({ success: true, hasMore: false });
    expect(history.payments).toEqual([
      {
        id: expect.stringMatching(/^payment-\d+$/),
        paymentId: expect.any(Number),
        date: expect.any(String),
        amount: 150,
        currency: "RUB",
        purpose: "renewal",
        months: 1,
        trialDays: null,
        status: "paid",
        receiptUrl: expect.stringMatching(/^\/api\/profile\/payments\/\d+\/receipt$/),
        method: "card",
      },
      expect.objectContaining({
        amount: 1,
        purpose: "trial",
        months: 1,
        trialDays: 30,
        status: "paid",
        method: "card",
      }),
    ]);
    const [renewal, trial] = history.payments;
    expect(Date.parse(renewal?.date ?? "")).toBeGreaterThan(Date.parse(trial?.date ?? ""));
  });

  test("never shows another customer's payments", async () => {
    const mine = (await historyOf(renewingNow)).payments.map((entry) => entry.paymentId);
    const theirs = (await historyOf(decliningNow)).payments.map((entry) => entry.paymentId);
    expect(mine.filter((id) => theirs.includes(id))).toEqual([]);
    const owners = await context.database.all<{ user_id: number }>(
      `SELECT DISTINCT user_id FROM payments WHERE id IN (${[...mine].join(",")})`,
    );
    expect(owners).toHaveLength(1);
  });

  test("a declined renewal is shown as declined, with no receipt", async () => {
    const [latest, first] = (await historyOf(decliningNow)).payments;
    expect(latest).toMatchObject({ purpose: "renewal", amount: 150, status: "declined", receiptUrl: null });
    expect(first).toMatchObject({ purpose: "trial", status: "paid" });
  });

  test("a customer who never paid has an empty history, and an unpaid order is not a payment", async () => {
    expect((await historyOf(await signIn(app, "browsing@example.com"))).payments).toEqual([]);
  });

  test("a refund is an entry of its own and marks the payment refunded", async () => {
    const [renewal] = (await historyOf(renewingNow)).payments;
    await context.database.run(
      "UPDATE payments SET status = 'refunded', refunded_amount = amount, refunded_at = ? WHERE id = ?",
      [context.clock.now(), renewal?.paymentId ?? 0],
    );
    const [refund, refunded] = (await historyOf(renewingNow)).payments;
    expect(refund).toMatchObject({ purpose: "refund", amount: 150, status: "refunded" });
    expect(refunded).toMatchObject({ purpose: "renewal", status: "refunded", paymentId: renewal?.paymentId });
    await context.database.run(
      "UPDATE payments SET status = 'completed', refunded_amount = 0, refunded_at = NULL WHERE id = ?",
      [renewal?.paymentId ?? 0],
    );
  });

  test("names how each payment was made, by SBP or by card at either provider, and a refund the same way", async () => {
    const bySbp = await signIn(app, "history-sbp@example.com");
    expect((await payQr(world, (await sbpOrder(world, bySbp)).qr)).success).toBe(true);
    const [sbpTrial] = (await historyOf(bySbp)).payments;
    expect(sbpTrial).toMatchObject({ purpose: "trial", status: "paid", method: "sbp" });
    // The cabinet's table has no room for the method; the receipt it links to names it.
    expect(await (await receipt(bySbp, sbpTrial?.receiptUrl ?? "")).text()).toContain(
      "Paid · SBP (Faster Payments)",
    );
    // The money goes back the way it came: the refund's entry names the payment's method.
    await context.database.run(
      "UPDATE payments SET status = 'refunded', refunded_amount = amount, refunded_at = ? WHERE id = ?",
      [context.clock.now(), sbpTrial?.paymentId ?? 0],
    );
    expect((await historyOf(bySbp)).payments).toEqual([
      expect.objectContaining({ purpose: "refund", method: "sbp" }),
      expect.objectContaining({ purpose: "trial", status: "refunded", method: "sbp" }),
    ]);

    // A card paid at YooKassa is a card like any other: the provider is not the customer's concern.
    // This card paid a trial here before (the first customer's), so its trial is refused and
    // sent back: both entries name the card.
    const atYooKassa = await yooKassaCardCustomer(app, context, "history-yookassa@example.com");
    expect((await historyOf(atYooKassa)).payments).toEqual([
      expect.objectContaining({ purpose: "refund", method: "card" }),
      expect.objectContaining({ purpose: "trial", status: "refunded", method: "card" }),
    ]);
    expect(
      await context.database.get<{ provider: string }>("SELECT provider FROM payments WHERE account_id = ?", [
        atYooKassa.accountId,
      ]),
    ).toEqual({ provider: "yookassa" });
  });

  test("a first payment without a trial is not called the trial, even when 100% off brings it to the trial's price", async () => {
    // A former customer whose first payment was the trial: their next first order has none.
    await fixture(app, { email: "returning@example.com", status: "EXPIRED", paid: "trial" });
    const returning = await signIn(app, "returning@example.com");
    // Four invitees who pay take 100% off; the card must still be saved, so the order
    // charges the 1-unit payment, at the plan's price and not as a trial.
    const code = await referralCodeOf(app, returning);
    for (const friend of [1, 2, 3, 4])
      await fixture(app, {
        email: `returning-friend${friend}@example.com`,
        status: "ACTIVE",
        referralCode: code,
      });
    const options = await order(app, returning, 1, 30);
    expect(options).toMatchObject({ amount: 1, trial: false });
    expect((await payWithCard(app, options.invoiceId, cards.success)).success).toBe(true);

    const [paid, trial] = (await historyOf(returning)).payments;
    expect(paid).toMatchObject({ amount: 1, purpose: "first", months: 1, trialDays: null, status: "paid" });
    expect(trial).toMatchObject({ amount: 1, purpose: "trial", status: "paid" });
    const page = await (await receipt(returning, paid?.receiptUrl ?? "")).text();
    expect(page).toContain("First payment: 1-month subscription");
    expect(page).not.toContain("trial");
  });
});

describe("a payment's receipt", () => {
  test("shows its owner the payment as a page with no script", async () => {
    const [renewal] = (await historyOf(renewingNow)).payments;
    const response = await receipt(renewingNow, renewal?.receiptUrl ?? "");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/html");
    expect(response.headers.get("content-security-policy")).toContain("default-src 'none'");
    const page = await response.text();
    expect(page).toContain(`Receipt No. ${renewal?.paymentId}`);
    expect(page).toContain("150\u00a0₽");
    expect(page).toContain("history@example.com");
    expect(page).toContain("Renewal: 1-month period");
    expect(page).toContain("Paid · Card");
    expect(page).not.toContain("<script");
  });

  test("is a 404 for another customer, a 401 without a session, a 404 for a declined payment", async () => {
    const [renewal] = (await historyOf(renewingNow)).payments;
    const url = renewal?.receiptUrl ?? "";
    const stranger = await receipt(decliningNow, url);
    expect(stranger.status).toBe(404);
    expect(await stranger.text()).not.toContain("history@example.com");
    expect((await receipt(undefined, url)).status).toBe(401);
    const [declined] = (await historyOf(decliningNow)).payments;
    expect((await receipt(decliningNow, `/api/profile/payments/${declined?.paymentId}/receipt`)).status).toBe(
      404,
    );
    expect((await receipt(renewingNow, "/api/profile/payments/abc/receipt")).status).toBe(400);
  });

  test("speaks the customer's language", async () => {
    const [renewal] = (await historyOf(renewingNow)).payments;
    const response = await app.handle(
      request(renewal?.receiptUrl ?? "", {
        headers: { cookie: `${renewingNow.cookie}; i18next=ru` },
      }),
    );
    const page = await response.text();
    expect(page).toContain(`Чек № ${renewal?.paymentId}`);
    expect(page).toContain("Оплачен · Картой");
  });
});
