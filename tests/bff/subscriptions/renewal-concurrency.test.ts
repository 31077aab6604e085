import { describe, expect, test } from "vitest";
import { createGatewayClient, type GatewayClient } from "../../../bff/adapters/cloudpayments/client";
import { createSandboxGateway } from "../../../bff/adapters/sandbox/gateway";
import type { AppContext } from "../../../bff/context";
import { runRenewals } from "../../../bff/jobs/renewals";
import type { Clock } from "../../../bff/platform/clock";
import type { HttpClient } from "../../../bff/platform/http-client";
import { makeTestApp } from "../../helpers/app";
import { advanceDays, ledger as ledgerOf, payingCustomers, runBilling } from "../../helpers/payments";

type TestApp = Awaited<ReturnType<typeof makeTestApp>>;

/** Paying customers whose first renewal is due now, their pre-charge notices sent a day and a half ago. */
async function dueCustomers(count: number, prefix: string) {
  const testApp = await makeTestApp();
  const accounts = await payingCustomers(testApp.app, count, prefix);
  await runBilling(testApp.app); // the pre-charge notices, 24 hours ahead (DESIGN §13(a))
  await advanceDays(testApp.app, 1.5);
  return { testApp, accounts };
}

/** Completed renewal charges at the bank per account. */
async function chargesAtTheBank({ app }: TestApp) {
  const charges = new Map<string, number>();
  for (const entry of await ledgerOf(app))
    if (entry.invoiceId.startsWith("renewal-") && entry.status === "Completed")
      charges.set(entry.accountId, (charges.get(entry.accountId) ?? 0) + 1);
  return charges;
}

async function expectOneChargeEach(testApp: TestApp, accounts: string[]) {
  const charges = await chargesAtTheBank(testApp);
  expect(accounts.filter((account) => charges.get(account) !== 1)).toEqual([]);
  expect(charges.size).toBe(accounts.length);
}

const pendingRenewals = async (context: AppContext) =>
  (
    await context.database.get<{ count: number }>(
      "SELECT COUNT(*) AS count FROM payments WHERE kind = 'renewal' AND status = 'pending'",
    )
  )?.count ?? 0;

/**
 * The bank's token charges held back until `release` calls are waiting (or every attempt
 * has been sent, or 200 ms passed), then let through together: how many the pass had in
 * flight at once is then what it allowed, however fast or slow the machine.
 */
function heldCharges(context: AppContext, release: number, total: number) {
  const { gateway } = context.payments;
  let waiting: (() => void)[] = [];
  let sent = 0;
  let inFlight = 0;
  let mostInFlight = 0;
  const held: GatewayClient = {
    ...gateway,
    chargeToken: async (...args) => {
      sent++;
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      await new Promise<void>((resolve) => {
        waiting.push(resolve);
        const letGo = () => {
          for (const go of waiting) go();
          waiting = [];
        };
        if (waiting.length >= release || sent === total) letGo();
        // A pass that never sends `release` at once is let through after a while: the
        // count in flight, not the time, is what the test looks at.
        else setTimeout(letGo, 200);
      });
      try {
        return await gateway.chargeToken(...args);
      } finally {
        inFlight--;
      }
    },
  };
  return {
    context: { ...context, payments: { ...context.payments, gateway: held } },
    mostInFlight: () => mostInFlight,
  };
}

/** What the bank does with a call: charges and answers, turns it away (429), or charges and never answers in time. */
type BankTrouble = "none" | "busy" | "timeout";

/**
 * The real gateway client over an HTTP client that, for the calls `trouble` names, answers
 * 429 in the bank's place, or lets the bank charge and then fails the call as the HTTP
 * client's own timeout does. Calls are held until eight wait (or 200 ms passed), so how
 * many were in flight after the trouble is what the pass allowed.
 */
function troubledBank(context: AppContext, trouble: (call: number) => BankTrouble) {
  let calls = 0;
  let refused = 0;
  let timedOut = 0;
  let inFlight = 0;
  const inFlightAtEachCall: number[] = [];
  let waiting: (() => void)[] = [];
  const letGo = () => {
    for (const go of waiting) go();
    waiting = [];
  };
  const http: HttpClient = {
    fetch: async (call) => {
      if (!call.url.endsWith("/payments/tokens/charge")) return context.http.fetch(call);
      const kind = trouble(++calls);
      inFlight++;
      await new Promise<void>((resolve) => {
        waiting.push(resolve);
        if (waiting.length >= 8) letGo();
        else setTimeout(letGo, 200);
      });
      if (kind === "busy") {
        inFlight--;
        refused++;
        return new Response('{"Message":"rate limit"}', { status: 429, headers: { "retry-after": "0" } });
      }
      inFlightAtEachCall.push(inFlight);
      try {
        const answer = await context.http.fetch(call);
        if (kind === "none") return answer;
        // The bank charged the card; its answer came too late for the client.
        timedOut++;
        throw new DOMException("The operation timed out.", "TimeoutError");
      } finally {
        inFlight--;
      }
    },
    attachLoopback: () => undefined,
  };
  const gateway = createGatewayClient(
    {
      apiUrl: "http://loopback.kannt.internal/api/dev/sandbox/cloudpayments",
      publicId: "pk_kannt_sandbox",
      apiSecret: context.config.cloudPaymentsApiSecret,
    },
    http,
  );
  return {
    context: { ...context, payments: { ...context.payments, gateway } },
    refused: () => refused,
    timedOut: () => timedOut,
    inFlightAtEachCall: () => inFlightAtEachCall,
  };
}

describe("a renewal pass charges many cards at once", () => {
  test("up to RENEWAL_CONCURRENCY calls in flight, never more, and every due renewal charged once", async () => {
    const { testApp, accounts } = await dueCustomers(30, "window");
    const held = heldCharges({ ...testApp.context }, 8, accounts.length);
    const counts = await runRenewals(held.context, { concurrency: 8 });
    expect(held.mostInFlight()).toBe(8);
    expect(counts).toMatchObject({ charged: 30, completed: 30, declined: 0 });
    expect(await pendingRenewals(testApp.context)).toBe(0);
    await expectOneChargeEach(testApp, accounts);
  }, 120_000);

  test("RENEWAL_CONCURRENCY 1 charges one card at a time", async () => {
    const { testApp, accounts } = await dueCustomers(6, "one-by-one");
    const held = heldCharges(testApp.context, 2, accounts.length);
    expect(await runRenewals(held.context, { concurrency: 1 })).toMatchObject({ charged: 6, completed: 6 });
    expect(held.mostInFlight()).toBe(1);
    await expectOneChargeEach(testApp, accounts);
  }, 120_000);

  test("calls the bank turns away with 429 are sent again, fewer at once, and nobody is charged twice", async () => {
    const { testApp, accounts } = await dueCustomers(24, "busy");
    // The bank refuses the first eight calls, as a gateway at its rate limit would.
    const bank = troubledBank(testApp.context, (call) => (call <= 8 ? "busy" : "none"));
    const counts = await runRenewals(bank.context, { concurrency: 8 });
    expect(bank.refused()).toBe(8);
    // A round of refusals halved the window: the calls that followed went four at a time,
    // not eight, and it grew back as answers came.
    expect(bank.inFlightAtEachCall().slice(0, 4)).toEqual([4, 4, 4, 4]);
    expect(Math.max(...bank.inFlightAtEachCall())).toBeLessThan(8);
    expect(counts).toMatchObject({ charged: 24, completed: 24, declined: 0 });
    expect(await pendingRenewals(testApp.context)).toBe(0);
    await expectOneChargeEach(testApp, accounts);
  }, 120_000);

  test("a bank that keeps answering 429 leaves the attempts pending, never declined, and a later pass charges each once", async () => {
    const { testApp, accounts } = await dueCustomers(4, "refused");
    let skewMs = 0;
    const leaseClock: Clock = { now: () => Date.now() + skewMs };
    const bank = troubledBank(testApp.context, () => "busy");
    const refusedPass = await runRenewals(bank.context, { concurrency: 4, leaseClock });
    expect(refusedPass).toMatchObject({ charged: 4, completed: 0, declined: 0 });
    // Five tries each, then left for a look-up: nothing reached the bank.
    expect(bank.refused()).toBe(20);
    expect(await pendingRenewals(testApp.context)).toBe(4);
    expect((await chargesAtTheBank(testApp)).size).toBe(0);

    // Once the lease is gone, a pass looks them up, finds nothing, and charges them.
    skewMs = 31_000;
    const later = await runRenewals(testApp.context, { leaseClock });
    expect(later).toMatchObject({ recovered: 4, charged: 4, completed: 4 });
    await expectOneChargeEach(testApp, accounts);
  }, 120_000);

  test("calls that time out after the bank charged: fewer at once after them, never sent again, settled once by the bank's notifications", async () => {
    const { testApp, accounts } = await dueCustomers(24, "timeout");
    let skewMs = 0;
    const leaseClock: Clock = { now: () => Date.now() + skewMs };
    // The first eight calls charge the card but their answers never arrive in time.
    const bank = troubledBank(testApp.context, (call) => (call <= 8 ? "timeout" : "none"));
    const pass = await runRenewals(bank.context, { concurrency: 8, leaseClock });
    expect(bank.timedOut()).toBe(8);
    // A round of calls without an answer halved the window, as a 429 does.
    expect(bank.inFlightAtEachCall().slice(8, 12)).toEqual([4, 4, 4, 4]);
    expect(Math.max(...bank.inFlightAtEachCall().slice(8))).toBeLessThan(8);
    // The pass neither declined them nor sent them again; the bank's Pay notifications
    // settled them (with lost notifications, a look-up does: the test below).
    expect(pass).toMatchObject({ charged: 24, completed: 16, declined: 0 });
    expect(await pendingRenewals(testApp.context)).toBe(0);

    // Once the lease is gone, a later pass has nothing left to charge or look up.
    skewMs = 31_000;
    expect(await runRenewals(testApp.context, { leaseClock })).toMatchObject({ recovered: 0, charged: 0 });
    await expectOneChargeEach(testApp, accounts);
  }, 120_000);

  test("a process killed with every call in flight: each attempt settled by look-up, none charged again", async () => {
    const { testApp, accounts } = await dueCustomers(5, "killed");
    let skewMs = 0;
    const leaseClock: Clock = { now: () => Date.now() + skewMs };
    // The bank charges each card; its answers and its notifications never come back.
    const { sandbox } = testApp.context.payments;
    if (!sandbox) throw new Error("this test needs the sandbox gateway");
    const lostNotifications: HttpClient = {
      fetch: async () => new Response("gone", { status: 503 }),
      attachLoopback: () => undefined,
    };
    const bank = createSandboxGateway(sandbox.ledger, testApp.context.clock, lostNotifications, {
      apiSecret: testApp.context.config.cloudPaymentsApiSecret,
      notificationUrl: "http://gone.invalid",
    });
    let charged = 0;
    const dying: GatewayClient = {
      ...testApp.context.payments.gateway,
      chargeToken: async (charge) => {
        await bank.chargeToken(charge);
        charged++;
        return new Promise(() => undefined);
      },
    };
    void runRenewals(
      { ...testApp.context, payments: { ...testApp.context.payments, gateway: dying } },
      {
        concurrency: 8,
        leaseClock,
      },
    );
    while (charged < 5) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await pendingRenewals(testApp.context)).toBe(5);
    skewMs = 31_000;
    expect(await runRenewals(testApp.context, { leaseClock })).toMatchObject({ recovered: 5, charged: 0 });
    expect(await pendingRenewals(testApp.context)).toBe(0);
    await expectOneChargeEach(testApp, accounts);
  }, 120_000);
});
