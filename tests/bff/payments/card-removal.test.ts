import { describe, expect, test } from "vitest";
import { apiOf, dataOf, identityOf, refusalOf, sessionOf, staffOf } from "../../helpers/api";
import { makeTestApp } from "../../helpers/app";
import { fixture, type SignedIn, signIn } from "../../helpers/customers";
import { makeOperator, tokensFor } from "../../helpers/operators";
import { cards, ledger, order, passDays, payWithCard } from "../../helpers/payments";

const { app, context } = await makeTestApp();
const { database } = context;
const api = apiOf(app);

const profileOf = (customer: SignedIn) => dataOf(api.profile.post(identityOf(customer), sessionOf(customer)));

const removeCard = (customer: SignedIn) =>
  api.profile.removeCard.post(identityOf(customer), sessionOf(customer));

/** A customer who paid the 30-day first payment with a card the sandbox keeps as a token. */
async function paidCustomer(email: string) {
  const customer = await signIn(app, email);
  const options = await order(app, customer, 1, 30);
  expect((await payWithCard(app, options.invoiceId, cards.success)).success).toBe(true);
  const userId = Number(options.accountId.replace("customer-", ""));
  return { customer, options, userId };
}

const tokensHeldFor = async (userId: number) =>
  (
    await database.get<{ count: number }>(
      `SELECT (SELECT COUNT(*) FROM subscriptions WHERE user_id = ? AND card_token IS NOT NULL)
         + (SELECT COUNT(*) FROM payments WHERE user_id = ? AND card_token IS NOT NULL) AS count`,
      [userId, userId],
    )
  )?.count;

const subscriptionOf = (userId: number) =>
  database.get<{ status: string; dunning_attempts: number; next_charge_at: number | null }>(
    "SELECT status, dunning_attempts, next_charge_at FROM subscriptions WHERE user_id = ? ORDER BY id DESC LIMIT 1",
    [userId],
  );

const paymentsOf = (userId: number) =>
  database.all<{ kind: string; status: string }>(
    "SELECT kind, status FROM payments WHERE user_id = ? ORDER BY id",
    [userId],
  );

describe("removing the saved card", () => {
  test("forgets the token, turns auto-renewal off and keeps access to the end of the paid period", async () => {
    const { customer, userId } = await paidCustomer("remove@example.com");
    const before = await profileOf(customer);
    expect(before.card).toEqual({ isSaved: true, lastFour: "4242", removedAt: null, removedBy: null });
    expect(await tokensHeldFor(userId)).toBeGreaterThan(0);

    expect(await dataOf(removeCard(customer))).toMatchObject({
      success: true,
      subscriptionStatus: "CANCELED",
      subscriptionIsActive: true,
      expirationDate: before.userInfo.expirationDate,
      card: { isSaved: false, lastFour: null },
    });
    expect(await tokensHeldFor(userId)).toBe(0);
    const after = await profileOf(customer);
    expect(after.userInfo).toMatchObject({
      subscriptionStatus: "CANCELED",
      subscriptionIsActive: true,
      nextTransactionDate: null,
      expirationDate: before.userInfo.expirationDate,
    });
    expect(after.card).toMatchObject({
      isSaved: false,
      lastFour: null,
      removedAt: expect.any(String),
      removedBy: "customer",
    });
  });

  test("the renewal pass charges nothing; the period ends as EXPIRED with no failed payment or dunning", async () => {
    const { customer, options, userId } = await paidCustomer("runs-out@example.com");
    expect((await removeCard(customer)).status).toBe(200);
    await passDays(app, 29);
    expect((await profileOf(customer)).userInfo).toMatchObject({
      subscriptionStatus: "CANCELED",
      subscriptionIsActive: true,
    });
    await passDays(app, 2);
    expect((await profileOf(customer)).userInfo).toMatchObject({
      subscriptionStatus: "EXPIRED",
      subscriptionIsActive: false,
    });
    expect(await subscriptionOf(userId)).toMatchObject({ dunning_attempts: 0, next_charge_at: null });
    expect(await paymentsOf(userId)).toEqual([{ kind: "first", status: "completed" }]);
    const bank = await ledger(app, options.accountId);
    expect(bank.map((entry) => entry.amount)).toEqual([1]);
  });

  test("a second removal is a clear 409 and changes nothing", async () => {
    const { customer } = await paidCustomer("twice@example.com");
    expect((await removeCard(customer)).status).toBe(200);
    const removed = await profileOf(customer);
    const again = await removeCard(customer);
    expect(again.status).toBe(409);
    expect(again.error?.value).toMatchObject({
      success: false,
      error: {
        code: "no_saved_card",
        message: "There is no saved card to remove; auto-renewal is already off.",
      },
    });
    expect(await profileOf(customer)).toEqual(removed);
  });

  test("another customer cannot remove the card (403), nor can anyone without a session (401)", async () => {
    const { customer: owner, userId } = await paidCustomer("owner@example.com");
    const intruder = await signIn(app, "intruder@example.com");
    const forged = await refusalOf(api.profile.removeCard.post(identityOf(owner), sessionOf(intruder)));
    expect(forged.status).toBe(403);
    const anonymous = await refusalOf(api.profile.removeCard.post(identityOf(owner)));
    expect(anonymous.status).toBe(401);
    expect((await profileOf(owner)).card).toMatchObject({ isSaved: true, lastFour: "4242" });
    expect(await tokensHeldFor(userId)).toBeGreaterThan(0);
  });

  test("coming back is a card payment, never a free resume", async () => {
    const { customer, userId } = await paidCustomer("comes-back@example.com");
    expect((await removeCard(customer)).status).toBe(200);
    const resume = await refusalOf(api.subscriptions.resume.post(identityOf(customer), sessionOf(customer)));
    expect(resume.status).toBe(409);
    expect(resume.message).toMatch(/no saved card.*pay with a card/);
    expect((await subscriptionOf(userId))?.status).toBe("CANCELED");

    await passDays(app, 31);
    // A month later the session has lapsed too: the customer signs in again.
    const returning = await signIn(app, customer.email);
    const again = await order(app, returning, 1, 30);
    expect((await payWithCard(app, again.invoiceId, cards.success)).success).toBe(true);
    const back = await profileOf(returning);
    expect(back.userInfo).toMatchObject({ subscriptionStatus: "ACTIVE", subscriptionIsActive: true });
    expect(back.card).toEqual({ isSaved: true, lastFour: "4242", removedAt: null, removedBy: null });
  });

  test("a card kept from an ended subscription is shown and can be removed as well", async () => {
    const customer = await signIn(app, "ended@example.com");
    const first = await order(app, customer, 1, 30);
    expect((await payWithCard(app, first.invoiceId, cards.expiredLater)).success).toBe(true);
    const userId = Number(first.accountId.replace("customer-", ""));
    await passDays(app, 31);
    // The renewal met an expired card; a new order (not paid) makes a newer subscription.
    const returning = await signIn(app, customer.email);
    await order(app, returning, 1, 30);
    const before = await profileOf(returning);
    expect(before.userInfo.subscriptionStatus).toBe("NOT_ACTIVE");
    expect(before.card).toEqual({ isSaved: true, lastFour: "0069", removedAt: null, removedBy: null });
    expect((await removeCard(returning)).status).toBe(200);
    expect(await tokensHeldFor(userId)).toBe(0);
    expect((await profileOf(returning)).userInfo.subscriptionStatus).toBe("NOT_ACTIVE");
  });

  test("a customer who never saved a card gets a clear 409", async () => {
    const customer = await signIn(app, "no-card@example.com");
    const refusal = await refusalOf(removeCard(customer));
    expect(refusal.status).toBe(409);
    expect(refusal.message).toMatch(/no saved card to remove/);
  });

  test("a charge already on its way with the card is waited for, not overtaken", async () => {
    const { customer, userId } = await paidCustomer("in-flight@example.com");
    await database.run(
      `INSERT INTO payments (user_id, subscription_id, kind, invoice_id, account_id, amount, currency, description,
         status, created_at, updated_at)
       SELECT user_id, id, 'renewal', 'renewal-in-flight', 'customer-' || user_id, 15000, 'RUB', 'renewal', 'pending', 0, 0
       FROM subscriptions WHERE user_id = ?`,
      [userId],
    );
    const refusal = await refusalOf(removeCard(customer));
    expect(refusal.status).toBe(409);
    expect(refusal.message).toMatch(/being processed/);
    expect((await profileOf(customer)).card.isSaved).toBe(true);
    await database.run("DELETE FROM payments WHERE invoice_id = 'renewal-in-flight'");
  });
});

describe("a due subscription without a saved card", () => {
  test("is not declined as a failed payment: no attempt is written and it simply ends", async () => {
    // Fixtures carry no card, like a subscription whose card was lost before this change.
    const { userId } = await fixture(app, { email: "cardless@example.com", status: "ACTIVE" });
    await passDays(app, 26);
    expect(await subscriptionOf(userId)).toMatchObject({ status: "EXPIRED", dunning_attempts: 0 });
    // Only the fixture's own payment for its period: no renewal attempt was written.
    expect((await paymentsOf(userId)).filter((payment) => payment.kind !== "first")).toEqual([]);
  });
});

describe("the operator's view of a customer", () => {
  test("getUserById shows the saved card's last four, then that and when it was removed", async () => {
    const admin = await makeOperator(context, "card.viewer", "support");
    const { accessToken } = await tokensFor(app, admin.username, admin.password);
    const { customer, userId } = await paidCustomer("panel-card@example.com");
    const details = () =>
      dataOf(api.panel.users.getUserById.post({}, { ...staffOf(accessToken), query: { id: userId } }));
    expect((await details()).card).toEqual({
      isSaved: true,
      lastFour: "4242",
      removedAt: null,
      removedBy: null,
    });
    const removing = context.clock.now();
    expect((await removeCard(customer)).status).toBe(200);
    const removed = context.clock.now();
    const { card } = await details();
    expect(card).toMatchObject({ isSaved: false, lastFour: null });
    expect(Date.parse(card.removedAt ?? "")).toBeGreaterThanOrEqual(removing);
    expect(Date.parse(card.removedAt ?? "")).toBeLessThanOrEqual(removed);
  });
});
