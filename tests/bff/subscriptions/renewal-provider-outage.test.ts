import { describe, expect, test } from "vitest";
import { runRenewals } from "../../../bff/jobs/renewals";
import type { Clock } from "../../../bff/platform/clock";
import type { PaymentProvider } from "../../../core/payment-methods";
import { providerRequests } from "../../../db/queries/provider-requests";
import { apiOf, dataOf, identityOf, sessionOf } from "../../helpers/api";
import { makeTestApp } from "../../helpers/app";
import { cloudPaymentsOutage, type YooKassaFault, yooKassaOutage } from "../../helpers/provider-outage";
import { type DueCustomer, dueOnEveryMethod } from "../../helpers/renewal-mix";
import {
  expectEachChargedOnce,
  expectKeptWaiting,
  expectOthersRenewed,
  expectPaidByNotification,
  metInOrder,
  periodsOf,
} from "../../helpers/renewal-outcomes";
import { sandboxOf } from "../../helpers/sbp";

// A provider going down in the middle of a renewal pass (DESIGN §6): a call that got no
// answer (no connection, a 5xx, a timeout) is no decline. Its attempt stays pending under
// the pass's lease, the customer keeps access with no dunning and no failure mail, and once
// the lease is gone a later pass asks the provider what became of it, never charging
// blindly: YooKassa's kept request is sent again under its Idempotence-Key, a CloudPayments
// invoice is looked up and charged again only if it never got there. A charge the provider
// made whose answer was lost is paid by the provider's notification, once. The other
// provider's customers in the same pass are renewed as if nothing happened, and both
// sandboxes' ledgers are reconciled with our payments: each customer charged exactly once.

type TestApp = Awaited<ReturnType<typeof makeTestApp>>;

/** Customers per saved method (12 in all): each provider's first card and SBP charge go before its outage. */
const rounds = 3;

/** The lease clock of the passes, moved past a lease's 30 s to have a pass look up what a dead one left. */
function leaseTime() {
  const skew = { ms: 0 };
  const clock: Clock = { now: () => Date.now() + skew.ms };
  return { clock, leaseGone: () => (skew.ms += 31_000) };
}

/** A pass charging one customer at a time, so the outage meets them in the order they fell due. */
const pass = ({ context }: TestApp, leaseClock: Clock) =>
  runRenewals(context, { leaseClock, concurrency: 1, stopGraceMs: 0 });

/** Every SBP charge either bank answered Pending is decided, and its notification applied. */
async function banksSettled(world: TestApp) {
  await sandboxOf(world).sbp.settled();
  await dataOf(apiOf(world.app).dev.sandbox.yookassa.settled.get());
}

const renewalMetric = async ({ context }: TestApp, result: string) =>
  (await context.metrics.renewals.get()).values.find((value) => value.labels.result === result)?.value;

const providerUp = async ({ context }: TestApp, provider: PaymentProvider) =>
  (await context.metrics.registry.metrics()).match(
    new RegExp(`kannt_payment_provider_up\\{provider="${provider}"\\} (\\d)`),
  )?.[1];

/** The calls to a provider that got no answer, as the metrics count them. */
const failedCalls = async ({ context }: TestApp, provider: PaymentProvider) =>
  Number(
    (await context.metrics.registry.metrics()).match(
      new RegExp(`kannt_payment_provider_calls_total\\{provider="${provider}",result="failed"\\} (\\d+)`),
    )?.[1],
  );

/** The provider's health on this instance and its metric, and the other's. */
async function expectHealth(world: TestApp, failing: PaymentProvider | undefined) {
  for (const provider of ["cloudpayments", "yookassa"] as const) {
    const isFailing = provider === failing;
    expect(world.context.payments.health.stateOf(provider).healthy).toBe(!isFailing);
    expect(await providerUp(world, provider)).toBe(isFailing ? "0" : "1");
  }
}

/** Gives each charge that meets the outage the next fault for its method, in turn. */
function faultsByMethod<Fault>(customers: DueCustomer[], byMethod: { card: Fault[]; sbp: Fault[] }) {
  const met = { card: 0, sbp: 0 };
  return (accountId: string): Fault => {
    const method = customers.find((customer) => customer.accountId === accountId)?.method ?? "card";
    const faults = byMethod[method];
    return faults[met[method]++ % faults.length] as Fault;
  };
}

/** The first pass's counts: every customer charged; 2 of the failing provider's 6 answered, 4 not. */
const outagePass = { charged: 12, completed: 4, pending: 4, declined: 0, recovered: 0 };

describe("a provider going down in the middle of a renewal pass", () => {
  test("YooKassa fails after two charges: the rest keep access and are charged once after it recovers, their kept requests sent again under the same key", async () => {
    const world = await makeTestApp();
    const customers = await dueOnEveryMethod(world, rounds);
    const paidUntil = await periodsOf(world, customers);
    const outage = yooKassaOutage(
      world,
      2,
      faultsByMethod<YooKassaFault>(customers, {
        // The first card charge is made at YooKassa and only its answers lost; the rest make nothing.
        card: [
          { kind: "error", isWorkDone: true },
          { kind: "error", isWorkDone: false },
        ],
        sbp: [
          { kind: "timeout", isWorkDone: false },
          { kind: "error", isWorkDone: false },
        ],
      }),
    );
    const lease = leaseTime();

    expect(await pass(world, lease.clock)).toMatchObject(outagePass);
    await banksSettled(world);
    const met = metInOrder(customers, outage.met);
    expect(met.map(({ provider, method }) => `${provider} ${method}`)).toEqual([
      "yookassa card",
      "yookassa sbp",
      "yookassa card",
      "yookassa sbp",
    ]);
    const [answerLost, ...neverMade] = met;
    // Sent three times under its key, it is one payment; YooKassa's payment.succeeded
    // (checked by a GET, which still works) paid it.
    await expectPaidByNotification(world, answerLost);
    await expectKeptWaiting(world, neverMade, paidUntil);
    await expectOthersRenewed(world, customers, met);
    expect(await renewalMetric(world, "unanswered")).toBe(4);
    expect(world.context.payments.health.stateOf("yookassa")).toMatchObject({ failed: 4 });
    expect([await failedCalls(world, "yookassa"), await failedCalls(world, "cloudpayments")]).toEqual([4, 0]);
    await expectHealth(world, "yookassa");

    // While the lease of the pass that sent them lives, their attempts are its own.
    expect(await pass(world, lease.clock)).toMatchObject({ charged: 0, recovered: 0 });
    outage.recover();
    lease.leaseGone();
    // The look-ups send each kept request again under its key, and YooKassa makes each now,
    // once: the card settled by its look-up, the SBP charges by their notifications.
    expect(await pass(world, lease.clock)).toMatchObject({ charged: 0, recovered: 1 });
    await banksSettled(world);
    for (const { invoiceId } of met) {
      const sent = outage.sends.filter((send) => send.invoiceId === invoiceId);
      const kept = await providerRequests.latestPaymentOf(world.context.database, "yookassa", invoiceId);
      // The client's three tries in the outage, and the look-up's: one key, one body.
      expect(sent).toHaveLength(invoiceId === answerLost?.invoiceId ? 3 : 4);
      expect(new Set(sent.map((send) => send.key))).toEqual(new Set([kept?.idempotence_key]));
      expect(new Set(sent.map((send) => send.body)).size).toBe(1);
    }
    await expectEachChargedOnce(world, customers, paidUntil);
    await expectHealth(world, undefined);
    expect(await pass(world, lease.clock)).toMatchObject({ charged: 0, recovered: 0 });
  });

  test("CloudPayments fails after two charges: a charge it took is paid by its notification, those it never got are charged again once", async () => {
    const world = await makeTestApp();
    const customers = await dueOnEveryMethod(world, rounds);
    const paidUntil = await periodsOf(world, customers);
    const outage = cloudPaymentsOutage(
      world.context,
      2,
      faultsByMethod(customers, {
        card: ["timeoutAfterCharge", "noConnection"],
        sbp: ["badGateway", "noConnection"],
      }),
    );
    const lease = leaseTime();

    expect(await pass(world, lease.clock)).toMatchObject(outagePass);
    await banksSettled(world);
    const met = metInOrder(customers, outage.met);
    expect(met.map(({ provider, method }) => `${provider} ${method}`)).toEqual([
      "cloudpayments card",
      "cloudpayments sbp",
      "cloudpayments card",
      "cloudpayments sbp",
    ]);
    const [answerLost, ...neverSent] = met;
    await expectPaidByNotification(world, answerLost);
    await expectKeptWaiting(world, neverSent, paidUntil);
    await expectOthersRenewed(world, customers, met);
    expect(await renewalMetric(world, "unanswered")).toBe(4);
    expect(world.context.payments.health.stateOf("cloudpayments")).toMatchObject({ failed: 4 });
    expect([await failedCalls(world, "cloudpayments"), await failedCalls(world, "yookassa")]).toEqual([4, 0]);
    await expectHealth(world, "cloudpayments");

    expect(await pass(world, lease.clock)).toMatchObject({ charged: 0, recovered: 0 });
    outage.recover();
    lease.leaseGone();
    // Looked up and not found, the three are settled as never sent and charged again in the
    // same pass: the card paid, the SBP charges answered Pending and paid by their Pay.
    expect(await pass(world, lease.clock)).toMatchObject({
      recovered: 3,
      charged: 3,
      completed: 1,
      pending: 2,
    });
    await banksSettled(world);
    expect(await renewalMetric(world, "recovered")).toBe(3);
    await expectEachChargedOnce(world, customers, paidUntil);
    // A charge that never reached the bank is no declined payment in the customer's history.
    for (const { customer } of neverSent) {
      const history = await dataOf(
        apiOf(world.app).profile.payments.post(identityOf(customer), sessionOf(customer)),
      );
      expect(history.payments.map(({ purpose, status }) => `${purpose} ${status}`)).toEqual([
        "renewal paid",
        "trial paid",
      ]);
    }
    await expectHealth(world, undefined);
    expect(await pass(world, lease.clock)).toMatchObject({ charged: 0, recovered: 0 });
  });
});
