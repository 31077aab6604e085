import { expect, test } from "vitest";
import { leaseMs } from "../../../bff/jobs/renewal-lease";
import { apiOf, dataOf } from "../../helpers/api";
import { makeTestApp } from "../../helpers/app";
import { signIn } from "../../helpers/customers";
import { advanceDays, cards, order, passDays, payInSandbox, runBilling } from "../../helpers/payments";

// DESIGN §6 and §13(a): a renewal due while its provider is down for longer than a week is
// left unanswered (never charged twice), settled as never sent once the provider is back,
// and then charged once, after a new notice, since the first went out over 7 days before:
// the customer's subscription does not end for the provider's outage.

test("a renewal met by a nine-day outage is announced again and charged once after it, never ended for it", async () => {
  let leaseSkewMs = 0;
  const { app, context } = await makeTestApp({}, { leaseClock: { now: () => Date.now() + leaseSkewMs } });
  const api = apiOf(app);
  const outage = (isDown: boolean) =>
    dataOf(api.dev.sandbox.outage.post({ provider: "cloudpayments", isDown }));
  const customer = await signIn(app, "outage-week@example.com", { period: 2 });
  const options = await order(app, customer, 1, 2);
  await payInSandbox(app, { invoiceId: options.invoiceId, cardNumber: cards.success, expiry: "09/31" });
  await passDays(app, 1); // the notice, a day before the charge
  await advanceDays(app, 1.1);
  await outage(true);
  await runBilling(app); // the charge meets the outage: no answer
  await passDays(app, 9); // nine days down: the attempt stays pending, nothing else is sent
  await outage(false);
  leaseSkewMs += leaseMs + 1_000; // the leases of the passes that met it have lapsed
  await runBilling(app); // looked up: never reached the bank; the charge is announced again
  const renewals = () =>
    context.database.all<{ status: string; decline_reason: string | null }>(
      "SELECT status, decline_reason FROM payments WHERE account_id = ? AND kind = 'renewal' ORDER BY id",
      [options.accountId],
    );
  expect(await renewals()).toEqual([{ status: "declined", decline_reason: "not sent to the gateway" }]);
  const subscription = () =>
    context.database.get<{ status: string }>("SELECT status FROM subscriptions WHERE user_id = ?", [
      Number(options.accountId.replace("customer-", "")),
    ]);
  expect(await subscription()).toEqual({ status: "ACTIVE" });
  await passDays(app, 2);
  expect(await renewals()).toEqual([
    { status: "declined", decline_reason: "not sent to the gateway" },
    { status: "completed", decline_reason: null },
  ]);
  expect(await subscription()).toEqual({ status: "ACTIVE" });
  const charged = (
    await dataOf(api.dev.sandbox.ledger.get({ query: { accountId: options.accountId } }))
  ).filter((entry) => entry.invoiceId.startsWith("renewal-"));
  expect(charged.map((entry) => [entry.status, entry.amount])).toEqual([["Completed", 150]]);
});
