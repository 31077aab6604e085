import { expect } from "vitest";
import { addMonths } from "../../bff/platform/calendar";
import type { makeTestApp } from "./app";
import {
  accessOf,
  type DueCustomer,
  mailKindsOf,
  renewalChargesAtBanks,
  renewalsOf,
  subscriptionOf,
} from "./renewal-mix";

// What a renewal pass that met a provider's outage must leave, customer by customer, as the
// outage tests check it against our database, the cabinet, the mails and both ledgers.

type TestApp = Awaited<ReturnType<typeof makeTestApp>>;

/** A customer whose charge met the outage, with the attempt's invoice. */
export type MetCustomer = DueCustomer & { invoiceId: string };

/** Each customer's paid period's end, as it stood before the pass. */
export async function periodsOf(world: TestApp, customers: DueCustomer[]) {
  const ends = new Map<string, number>();
  for (const { accountId } of customers)
    ends.set(accountId, (await subscriptionOf(world, accountId)).end_date ?? 0);
  return ends;
}

/** The customers whose charges met the outage, in the order they met it. */
export function metInOrder(customers: DueCustomer[], met: { accountId: string; invoiceId: string }[]) {
  return met.map(({ accountId, invoiceId }): MetCustomer => {
    const customer = customers.find((candidate) => candidate.accountId === accountId);
    if (!customer) throw new Error(`${accountId} is no customer of this test`);
    return { ...customer, invoiceId };
  });
}

/** Every customer whose charge did not meet the outage, of either provider, was renewed by the pass. */
export async function expectOthersRenewed(world: TestApp, customers: DueCustomer[], met: MetCustomer[]) {
  const others = customers.filter(({ accountId }) => !met.some((charge) => charge.accountId === accountId));
  expect(others).toHaveLength(customers.length - met.length);
  for (const { accountId } of others)
    expect((await renewalsOf(world, accountId)).map((row) => row.status)).toEqual(["completed"]);
}

/**
 * A charge the provider made though its answer never came back: paid once, by the
 * provider's own notification of it, the one charge at its bank.
 */
export async function expectPaidByNotification(world: TestApp, charge: MetCustomer | undefined) {
  const renewals = await renewalsOf(world, charge?.accountId ?? "");
  expect(renewals.map((row) => [row.invoice_id, row.status])).toEqual([[charge?.invoiceId, "completed"]]);
  expect((await renewalChargesAtBanks(world)).get(charge?.accountId ?? "")).toMatchObject([
    { provider: charge?.provider, invoiceId: charge?.invoiceId, isPaid: true },
  ]);
}

/**
 * Charges that reached nobody: nothing at the bank, the attempt pending (neither paid nor
 * declined), the subscription ACTIVE with no dunning and its period as it was, the cabinet
 * open, and no failure mail.
 */
export async function expectKeptWaiting(
  world: TestApp,
  waiting: MetCustomer[],
  paidUntil: Map<string, number>,
) {
  const atBanks = await renewalChargesAtBanks(world);
  for (const { accountId, customer } of waiting) {
    expect(atBanks.get(accountId)).toBeUndefined();
    expect((await renewalsOf(world, accountId)).map((row) => row.status)).toEqual(["pending"]);
    expect(await subscriptionOf(world, accountId)).toMatchObject({
      status: "ACTIVE",
      dunning_attempts: 0,
      end_date: paidUntil.get(accountId),
    });
    expect(await accessOf(world, customer)).toMatchObject({
      subscriptionStatus: "ACTIVE",
      subscriptionIsActive: true,
    });
    expect(await mailKindsOf(world, customer.email)).toEqual(["trial_started", "renewal_notice"]);
  }
}

/**
 * Both ledgers against our payments: each customer charged exactly once, paid, at the
 * provider that holds its method, the charge our one completed renewal names (same
 * invoice, transaction and amount), no account charged that is not a customer, the period
 * extended once and the customer told once.
 */
export async function expectEachChargedOnce(
  world: TestApp,
  customers: DueCustomer[],
  paidUntil: Map<string, number>,
) {
  const atBanks = await renewalChargesAtBanks(world);
  expect([...atBanks.keys()].sort()).toEqual(customers.map((customer) => customer.accountId).sort());
  for (const { accountId, provider, customer } of customers) {
    const completed = (await renewalsOf(world, accountId)).filter((row) => row.status === "completed");
    expect(completed).toHaveLength(1);
    expect(atBanks.get(accountId)).toEqual([
      {
        provider,
        invoiceId: completed[0]?.invoice_id,
        transactionId: completed[0]?.transaction_id,
        isPaid: true,
        amount: completed[0]?.amount,
      },
    ]);
    expect((await subscriptionOf(world, accountId)).end_date).toBe(
      addMonths(paidUntil.get(accountId) ?? 0, 1),
    );
    expect(await mailKindsOf(world, customer.email)).toEqual([
      "trial_started",
      "renewal_notice",
      "payment_succeeded",
    ]);
  }
}
