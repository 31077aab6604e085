import { describe, expect, test } from "vitest";
import type { GatewayClient } from "../../../bff/adapters/cloudpayments/client";
import { createSandboxGateway } from "../../../bff/adapters/sandbox/gateway";
import type { AppContext } from "../../../bff/context";
import { runRenewals } from "../../../bff/jobs/renewals";
import { startRenewalScheduler } from "../../../bff/jobs/scheduler";
import type { Clock } from "../../../bff/platform/clock";
import type { HttpClient } from "../../../bff/platform/http-client";
import { makeTestApp } from "../../helpers/app";
import { advanceDays, ledger as ledgerOf, payingCustomers, runBilling } from "../../helpers/payments";

type TestApp = Awaited<ReturnType<typeof makeTestApp>>;

/** The bank's completed renewal charges per account and period (invoice `renewal-{subscription}-{period}-{attempt}`). */
async function completedRenewals({ app }: TestApp): Promise<Map<string, number>> {
  const charges = new Map<string, number>();
  for (const entry of await ledgerOf(app)) {
    if (!entry.invoiceId.startsWith("renewal-") || entry.status !== "Completed") continue;
    const period = entry.invoiceId.split("-")[2];
    const key = `${entry.accountId}/${period}`;
    charges.set(key, (charges.get(key) ?? 0) + 1);
  }
  return charges;
}

/** Exactly one completed charge for the first paid period of every account, and nothing else. */
async function expectOneChargeEach(testApp: TestApp, accounts: string[]) {
  const charges = await completedRenewals(testApp);
  const wrong = accounts.filter((account) => charges.get(`${account}/0`) !== 1);
  expect(wrong).toEqual([]);
  expect(charges.size).toBe(accounts.length);
  const pending = await testApp.context.database.get<{ count: number }>(
    "SELECT COUNT(*) AS count FROM payments WHERE status = 'pending'",
  );
  expect(pending?.count).toBe(0);
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * A bank that takes a few milliseconds per charge, as every real one does (far more): with
 * the loopback sandbox answering at once, a pass with its window of calls in flight would
 * be done before another pass could begin, and nothing would overlap.
 */
function slowBank(context: AppContext) {
  const { gateway } = context.payments;
  const chargeToken = gateway.chargeToken.bind(gateway);
  gateway.chargeToken = async (...args) => {
    await new Promise((resolve) => setTimeout(resolve, 10));
    return chargeToken(...args);
  };
}

const renewalAttempts = async (context: AppContext) =>
  (
    await context.database.get<{ count: number }>(
      "SELECT COUNT(*) AS count FROM payments WHERE kind = 'renewal'",
    )
  )?.count ?? 0;

const pendingRenewals = async (context: AppContext) =>
  (
    await context.database.all<{ invoice_id: string }>(
      "SELECT invoice_id FROM payments WHERE kind = 'renewal' AND status = 'pending' ORDER BY id",
    )
  ).map((row) => row.invoice_id);

describe("overlapping renewal passes charge each due renewal once", () => {
  test("four passes at once over 300 due customers: one completed charge each, none missed", async () => {
    const testApp = await makeTestApp();
    const accounts = await payingCustomers(testApp.app, 300, "four");
    await runBilling(testApp.app); // sends the pre-charge notices, due 24 hours before (DESIGN §13(a))
    await advanceDays(testApp.app, 1.5);
    slowBank(testApp.context);
    // Like four HTTP calls that arrive a moment apart: each later pass starts while the
    // earlier ones have attempts in flight. Small batches make the passes interleave.
    const passes = await Promise.all(
      [0, 1, 2, 3].map(async (order) => {
        while ((await renewalAttempts(testApp.context)) < order * 40) await nextTurn();
        return runRenewals(testApp.context, { batchSize: 30 });
      }),
    );
    await expectOneChargeEach(testApp, accounts);
    expect(passes.reduce((sum, pass) => sum + pass.completed, 0)).toBe(accounts.length);
    expect(passes.filter((pass) => pass.completed > 0).length).toBeGreaterThan(1);
    expect(await runBilling(testApp.app)).toMatchObject({ charged: 0, recovered: 0 });
  }, 300_000);

  test("a manual pass while the scheduler's own pass is charging: one completed charge each", async () => {
    const testApp = await makeTestApp();
    const accounts = await payingCustomers(testApp.app, 200, "scheduled");
    await runBilling(testApp.app); // sends the pre-charge notices, due 24 hours before (DESIGN §13(a))
    await advanceDays(testApp.app, 1.5);
    slowBank(testApp.context);
    const stop = startRenewalScheduler(testApp.context, 3_600_000);
    // The scheduler's pass has committed its attempts and is sending them to the bank.
    while ((await pendingRenewals(testApp.context)).length === 0) await nextTurn();
    const manual = await runBilling(testApp.app);
    await stop();
    await expectOneChargeEach(testApp, accounts);
    // It left the scheduler's attempts alone instead of taking them for a crash's leftovers.
    expect(manual.recovered).toBe(0);
  }, 300_000);
});

/**
 * A pass's gateway that dies after sending its first charge: the bank charges the card,
 * its notification to us is lost, and the answer never comes, as when the process is
 * killed mid-call. Only a look-up at the bank can tell that this attempt was paid.
 */
function dyingAfterSending(context: AppContext): AppContext {
  const { sandbox } = context.payments;
  if (!sandbox) throw new Error("these tests need the sandbox gateway");
  const lostNotifications: HttpClient = {
    fetch: async () => new Response("gone", { status: 503 }),
    attachLoopback: () => undefined,
  };
  const bank = createSandboxGateway(sandbox.ledger, context.clock, lostNotifications, {
    apiSecret: context.config.cloudPaymentsApiSecret,
    notificationUrl: "http://gone.invalid",
  });
  const gateway: GatewayClient = {
    ...context.payments.gateway,
    chargeToken: async (charge) => {
      await bank.chargeToken(charge);
      return new Promise(() => undefined);
    },
  };
  return { ...context, payments: { ...context.payments, gateway } };
}

describe("attempts of another pass", () => {
  test("are left alone while its lease lives, and settled by look-up, not charged again, once it expired", async () => {
    const testApp = await makeTestApp();
    const accounts = await payingCustomers(testApp.app, 3, "leased");
    await runBilling(testApp.app); // sends the pre-charge notices, due 24 hours before (DESIGN §13(a))
    await advanceDays(testApp.app, 1.5);
    let skewMs = 0;
    const leaseClock: Clock = { now: () => Date.now() + skewMs };
    // Left hanging on purpose: this pass never hears back from the bank. One call at a
    // time, so the other two attempts are never sent.
    void runRenewals(dyingAfterSending(testApp.context), { leaseClock, concurrency: 1 });
    while ((await completedRenewals(testApp)).size === 0) await nextTurn();
    // The bank charged one of three; all three attempts wait for an outcome.
    const stuck = await pendingRenewals(testApp.context);
    expect(stuck).toHaveLength(3);

    const whileAlive = await runRenewals(testApp.context, { leaseClock });
    expect(whileAlive).toMatchObject({ recovered: 0, charged: 0 });
    expect(await pendingRenewals(testApp.context)).toEqual(stuck);

    skewMs = 31_000;
    const afterExpiry = await runRenewals(testApp.context, { leaseClock });
    // One attempt reached the bank before the pass died: found, not charged again; two never left.
    expect(afterExpiry).toMatchObject({ recovered: 3, charged: 2, completed: 2 });
    expect(await pendingRenewals(testApp.context)).toEqual([]);
    await expectOneChargeEach(testApp, accounts);
  });

  test("of a process that no longer holds the database file are settled at once, lease or not", async () => {
    const testApp = await makeTestApp();
    const accounts = await payingCustomers(testApp.app, 2, "restarted");
    await runBilling(testApp.app); // sends the pre-charge notices, due 24 hours before (DESIGN §13(a))
    await advanceDays(testApp.app, 1.5);
    // Left hanging on purpose: this pass never hears back from the bank. One call at a
    // time, so the other attempt is never sent.
    void runRenewals(dyingAfterSending(testApp.context), { concurrency: 1 });
    while ((await completedRenewals(testApp)).size === 0) await nextTurn();
    // As if written by the process that had the file before this one (a restart after kill -9).
    const { database } = testApp.context;
    await database.run("UPDATE renewal_leases SET process_id = 'gone'");
    if (database.engine === "postgres") {
      // Instances share a PostgreSQL database: another process's lease is a running
      // instance's until it expires, and its attempts are left alone meanwhile.
      expect(await runRenewals(testApp.context)).toMatchObject({ recovered: 0, charged: 0 });
      return;
    }
    expect(await runRenewals(testApp.context)).toMatchObject({ recovered: 2, charged: 1, completed: 1 });
    await expectOneChargeEach(testApp, accounts);
  });
});
