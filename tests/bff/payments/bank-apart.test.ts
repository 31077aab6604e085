import { expect, test } from "vitest";
import { apiOf, dataOf, identityOf, sessionOf } from "../../helpers/api";
import { makeTestApp } from "../../helpers/app";
import { signIn } from "../../helpers/customers";
import { cards, ledger, order, passDays, payWithCard } from "../../helpers/payments";

/**
 * DESIGN §10's benches meet the bank as a process of its own, so its work is not counted as
 * the shop's: one demo instance is only the bank (its sandbox posts its notifications to
 * the shop, SANDBOX_NOTIFICATION_URL), and the shop, on a database of its own, registers
 * orders and charges cards there (CLOUDPAYMENTS_API_URL). The two apps below reach each
 * other only through their HTTP clients, as two processes would.
 */
type TestApp = Awaited<ReturnType<typeof makeTestApp>>;

const bankOrigin = "http://bank.kannt.test";
const shopOrigin = "http://shop.kannt.test";

/** Requests from `from` to `origin` are answered by `to`'s handler, as over the network. */
function connect(from: TestApp, origin: string, to: TestApp) {
  const send = from.context.http.fetch.bind(from.context.http);
  from.context.http.fetch = (outgoing) =>
    outgoing.url.startsWith(`${origin}/`) ? to.app.handle(outgoing) : send(outgoing);
}

async function shopAndBankApart() {
  const bank = await makeTestApp({ SANDBOX_NOTIFICATION_URL: `${shopOrigin}/api/payments/cloudpayments/` });
  const shop = await makeTestApp({
    APP_MODE: "demo",
    CLOUDPAYMENTS_API_URL: `${bankOrigin}/api/dev/sandbox/cloudpayments`,
  });
  connect(shop, bankOrigin, bank);
  connect(bank, shopOrigin, shop);
  return { bank, shop };
}

const answeredByTheShop = { status: 200, code: 0, error: null };

test("a shop whose bank is another process's sandbox: the first payment and a renewal, notified to the shop", async () => {
  const { bank, shop } = await shopAndBankApart();
  const customer = await signIn(shop.app, "bank-apart@example.com");
  const options = await order(shop.app, customer, 1, 1);

  // Paid at the bank, as the shop's page loads the bank's widget; the bank's Check and Pay
  // reach the shop, which knows the order (the bank's own database knows nobody).
  expect(await payWithCard(bank.app, options.invoiceId, cards.success)).toMatchObject({ success: true });
  const [first] = await ledger(bank.app, options.accountId);
  expect(first).toMatchObject({ invoiceId: options.invoiceId, status: "Completed" });
  expect(
    first?.notifications.map(({ kind, status, code, error }) => ({ kind, status, code, error })),
  ).toEqual([
    { kind: "check", ...answeredByTheShop },
    { kind: "pay", ...answeredByTheShop },
  ]);
  const profile = await dataOf(apiOf(shop.app).profile.post(identityOf(customer), sessionOf(customer)));
  expect(profile.userInfo).toMatchObject({ subscriptionStatus: "ACTIVE" });

  // The shop's renewal pass charges the card the bank saved, and the bank tells the shop.
  expect(await passDays(shop.app, 2)).toMatchObject({ completed: 1 });
  const entries = await ledger(bank.app, options.accountId);
  expect(entries.map((entry) => entry.status)).toEqual(["Completed", "Completed"]);
  const renewal = entries[1];
  expect(renewal?.invoiceId).toMatch(/^renewal-/);
  expect(renewal?.notifications).toMatchObject([{ kind: "pay", ...answeredByTheShop }]);
  const renewals = await shop.context.database.all<{ invoice_id: string; status: string }>(
    "SELECT invoice_id, status FROM payments WHERE account_id = ? AND kind = 'renewal'",
    [options.accountId],
  );
  expect(renewals).toEqual([{ invoice_id: renewal?.invoiceId, status: "completed" }]);

  // The shop has no sandbox of its own to pay at.
  expect((await apiOf(shop.app).dev.sandbox.ledger.get({ query: {} })).status).toBe(404);
});
