import { describe, expect, test } from "vitest";
import { apiOf, dataOf, identityOf, refusalOf, sessionOf, staffOf } from "../../helpers/api";
import { makeTestApp } from "../../helpers/app";
import { signIn } from "../../helpers/customers";
import { allowList, entryWithId, nodeHeaders, sendEvents } from "../../helpers/nodes";
import { makeOperator, tokensFor } from "../../helpers/operators";
import { advanceDays, cards, notifyAsGateway, order, payWithCard, runBilling } from "../../helpers/payments";

/** DESIGN §16: a customer downloads what is kept about them, and deletes their account. */
async function payingCustomerWithDevice(email: string) {
  const testApp = await makeTestApp();
  const { app, context } = testApp;
  const customer = await signIn(app, email);
  const options = await order(app, customer, 1, 1);
  expect((await payWithCard(app, options.invoiceId, cards.success)).success).toBe(true);
  const { accessKey } = await dataOf(
    apiOf(app).devices.activate.post(
      { ...identityOf(customer), deviceId: "phone", deviceName: "Pixel 9", platform: "android" },
      sessionOf(customer),
    ),
  );
  const node = await nodeHeaders(context, "se-sto-1");
  const tag = entryWithId(await allowList(app, node), accessKey)?.tag ?? "";
  const logged = await sendEvents(app, node, {
    traffic: [{ tag, upload: 1000, download: 5000 }],
    connections: [{ tag, clientIp: "198.51.100.23", at: Date.now(), success: true }],
  });
  expect(await logged.json()).toEqual({ success: true, ignored: 0 });
  const userId = Number(options.accountId.replace("customer-", ""));
  return { ...testApp, customer, accessKey, tag, node, userId, invoiceId: options.invoiceId };
}

describe("the customer's own data", () => {
  test("downloads as JSON: account, subscription, payments, devices, connections and e-mails", async () => {
    const { app, customer } = await payingCustomerWithDevice("export.me@example.com");
    const api = apiOf(app);
    const exported = api.profile.export.post(identityOf(customer), sessionOf(customer));
    const data = await dataOf(exported);
    const { response } = await exported;
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toContain("attachment");
    expect(data.account.email).toBe("export.me@example.com");
    expect(data.subscriptions).toEqual([
      expect.objectContaining({ status: "ACTIVE", savedCardLastFour: "4242" }),
    ]);
    expect(data.payments).toEqual([expect.objectContaining({ purpose: "trial", status: "paid" })]);
    expect(data.devices).toEqual([expect.objectContaining({ deviceName: "Pixel 9" })]);
    expect(data.traffic).toEqual([
      { deviceId: "phone", date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), upload: 1000, download: 5000 },
    ]);
    expect(data.connections).toEqual([
      expect.objectContaining({ address: "198.51.100.23", server: "se-sto-1" }),
    ]);
    expect(data.emails.length).toBeGreaterThan(0);
    // Nothing that opens anything: no card token, no access key, no session.
    const text = JSON.stringify(data);
    expect(text).not.toMatch(/token|secret|access_key|accessKey|hash/i);
    // No session: refused before the body (here without its uid) is looked at.
    expect((await api.profile.export.post({ email: customer.email } as never)).status).toBe(401);
  });

  test("deleting the account ends access and charges, removes what is personal, keeps the payments", async () => {
    const { app, context, customer, accessKey, tag, node, userId, invoiceId } =
      await payingCustomerWithDevice("delete.me@example.com");
    const api = apiOf(app);
    const before = await allowList(app, node);
    expect(entryWithId(before, accessKey)).toEqual(expect.objectContaining({ tag }));
    // Without the explicit confirmation nothing happens.
    const unconfirmed = identityOf(customer) as never;
    expect((await api.profile.delete.post(unconfirmed, sessionOf(customer))).status).toBe(400);

    const deleted = await api.profile.delete.post(
      { ...identityOf(customer), confirm: true },
      sessionOf(customer),
    );
    expect(deleted.status).toBe(200);
    expect(deleted.response.headers.getSetCookie().join()).toMatch(/kannt_session=;.*Max-Age=0/);

    // Signed out everywhere, and the VPN key leaves every node: the change says to drop its tag.
    expect((await api.profile.post(identityOf(customer), sessionOf(customer))).status).toBe(401);
    const change = await allowList(app, node, { since: before.version });
    expect(change).toMatchObject({ full: false, entries: [], removed: [tag] });
    expect(entryWithId(await allowList(app, node), accessKey)).toBeUndefined();

    const { database } = context;
    const user = await database.get<Record<string, unknown>>("SELECT * FROM users WHERE id = ?", [userId]);
    expect(user).toMatchObject({
      email: `deleted-${userId}@deleted.invalid`,
      photo_url: null,
      invitation_code: null,
    });
    expect(user?.deleted_at).toEqual(expect.any(Number));
    const subscription = await database.get<Record<string, unknown>>(
      "SELECT status, card_token, card_last_four, next_charge_at FROM subscriptions WHERE user_id = ?",
      [userId],
    );
    expect(subscription).toEqual({
      status: "EXPIRED",
      card_token: null,
      card_last_four: null,
      next_charge_at: null,
    });
    const traffic = await database.get<{ count: number }>("SELECT COUNT(*) AS count FROM device_traffic");
    expect(traffic?.count, "device_traffic").toBe(0);
    for (const table of ["devices", "connection_logs", "sessions", "mail_outbox"]) {
      const row = await database.get<{ count: number }>(
        `SELECT COUNT(*) AS count FROM ${table} WHERE user_id = ?`,
        [userId],
      );
      expect(row?.count, table).toBe(0);
    }
    // The payment stays, for accounting, without the address and the card.
    const payment = await database.get<Record<string, unknown>>(
      `SELECT status, amount, is_trial, ip_address, card_last_four, card_token, card_first_six, card_exp_date,
         card_fingerprint FROM payments WHERE invoice_id = ?`,
      [invoiceId],
    );
    expect(payment).toMatchObject({
      status: "completed",
      is_trial: 1,
      ip_address: null,
      card_last_four: null,
      card_token: null,
      card_first_six: null,
      card_exp_date: null,
    });
    expect(payment?.amount).toBeGreaterThan(0);
    // Only the trial's card fingerprint stays: the trial is once per card, for a new account too.
    expect(payment?.card_fingerprint).toEqual(expect.any(String));
    const subscriptionCards = await database.all<{ card_fingerprint: string | null }>(
      "SELECT card_fingerprint FROM subscriptions WHERE user_id = ?",
      [userId],
    );
    expect(subscriptionCards.map((row) => row.card_fingerprint)).toEqual([null]);

    // Support can see what happened: the customer's own act, on that account.
    const entry = await database.get<Record<string, unknown>>(
      "SELECT operator_id, target_user_id FROM audit_log WHERE action = 'customer.delete'",
    );
    expect(entry).toEqual({ operator_id: null, target_user_id: userId });
    // The panel marks the account as deleted, in the search and on the customer's card.
    await makeOperator(context, "support.desk", "support");
    const staff = staffOf((await tokensFor(app, "support.desk", "correct horse battery staple")).accessToken);
    const card = await dataOf(api.panel.users.getUserById.post({}, { ...staff, query: { id: userId } }));
    expect(card.email).toBe(`deleted-${userId}@deleted.invalid`);
    expect(Date.parse(card.deletedAt ?? "")).toBeLessThanOrEqual(context.clock.now());
    const found = await dataOf(
      api.panel.users.search.post({}, { ...staff, query: { emailPart: `deleted-${userId}@` } }),
    );
    expect(found.content).toEqual([expect.objectContaining({ id: userId, deletedAt: card.deletedAt })]);

    // Nothing is charged later, and signing in again makes a new, empty account.
    await advanceDays(app, 40);
    expect((await runBilling(app)).charged).toBe(0);
    const again = await signIn(app, "delete.me@example.com");
    const profile = await dataOf(api.profile.post(identityOf(again), sessionOf(again)));
    expect(profile.userInfo.subscriptionStatus).toBe("NOT_ACTIVE");
  });

  test("a charge of the card awaiting the bank makes the deletion wait, said in the customer's language", async () => {
    const { app, context, customer, userId } = await payingCustomerWithDevice("pending.me@example.com");
    await context.database.run("UPDATE payments SET status = 'pending', kind = 'renewal' WHERE user_id = ?", [
      userId,
    ]);
    const api = apiOf(app);
    const refused = await refusalOf(
      api.profile.delete.post({ ...identityOf(customer), confirm: true }, sessionOf(customer)),
    );
    expect(refused.status).toBe(409);
    expect(refused.message).toMatch(/being processed/);
    expect((await api.profile.post(identityOf(customer), sessionOf(customer))).status).toBe(200);
  });

  test("an order opened and never paid does not hold the deletion up, and can never be paid after it", async () => {
    const { app, context } = await makeTestApp();
    const customer = await signIn(app, "changed.mind@example.com");
    const opened = await order(app, customer, 1, 1);
    const deleted = await apiOf(app).profile.delete.post(
      { ...identityOf(customer), confirm: true },
      sessionOf(customer),
    );
    expect(deleted.status).toBe(200);
    const [row] = await context.database.all<{ status: string; decline_reason: string | null }>(
      "SELECT status, decline_reason FROM payments WHERE invoice_id = ?",
      [opened.invoiceId],
    );
    expect(row).toEqual({ status: "declined", decline_reason: "account deleted" });
    // The widget left open in another tab: the bank's check is refused, nothing is charged.
    const late = await payWithCard(app, opened.invoiceId, cards.success);
    expect(late.success).toBe(false);
    expect(late.checkCode).toBe(13);
    const completed = await context.database.all<{ completed: number }>(
      "SELECT COUNT(*) AS completed FROM payments WHERE status = 'completed'",
    );
    expect(completed[0]?.completed).toBe(0);
  });

  test("a Pay that comes after the deletion is recorded but buys nothing, keeps no card, and is named for a refund", async () => {
    const { app, context } = await makeTestApp();
    const customer = await signIn(app, "late.pay@example.com");
    const opened = await order(app, customer, 1, 1);
    // A refund entry that names the customer, as an operator's refund writes it.
    const userId = Number(opened.accountId.replace("customer-", ""));
    await context.database.run(
      "INSERT INTO audit_log (operator_id, action, target_user_id, details, ip_address, created_at) VALUES (NULL, 'refund', ?, ?, NULL, ?)",
      [userId, JSON.stringify({ email: customer.email, uid: customer.uid, total: 1 }), context.clock.now()],
    );
    const deleted = await apiOf(app).profile.delete.post(
      { ...identityOf(customer), confirm: true },
      sessionOf(customer),
    );
    expect(deleted.status).toBe(200);
    const pay = await notifyAsGateway(app, context.config.cloudPaymentsApiSecret, "pay", {
      TransactionId: "70000001",
      Amount: opened.amount.toFixed(2),
      Currency: "RUB",
      InvoiceId: opened.invoiceId,
      AccountId: opened.accountId,
      Token: "tk_late_card",
      CardFirstSix: "424242",
      CardLastFour: "4242",
      CardExpDate: "12/30",
      Status: "Completed",
    });
    expect(pay.code).toBe(0);
    const payment = await context.database.get<Record<string, unknown>>(
      "SELECT status, card_token, card_last_four, card_first_six, card_fingerprint FROM payments WHERE invoice_id = ?",
      [opened.invoiceId],
    );
    expect(payment).toEqual({
      status: "completed",
      card_token: null,
      card_last_four: null,
      card_first_six: null,
      card_fingerprint: null,
    });
    const subscription = await context.database.get<Record<string, unknown>>(
      "SELECT status, card_token, next_charge_at FROM subscriptions WHERE user_id = ?",
      [userId],
    );
    expect(subscription?.status).not.toBe("ACTIVE");
    expect(subscription?.card_token).toBeNull();
    expect(subscription?.next_charge_at).toBeNull();
    const entries = await context.database.all<{ action: string; details: string }>(
      "SELECT action, details FROM audit_log WHERE target_user_id = ? ORDER BY id",
      [userId],
    );
    expect(entries.map((entry) => entry.action)).toEqual([
      "refund",
      "customer.delete",
      "payment.after-deletion",
    ]);
    // Who the customer was is gone from the older entry; what was done stays.
    expect(JSON.parse(entries[0]?.details ?? "{}")).toEqual({ total: 1 });
    expect(JSON.parse(entries[2]?.details ?? "{}")).toMatchObject({
      transactionId: "70000001",
      currency: "RUB",
    });
  });
});
