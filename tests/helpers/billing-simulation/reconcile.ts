import type { Database } from "../../../db/database";
import type { LedgerEntry } from "../payments";
import type { YooKassaLedgerEntry } from "../yookassa";

type OurPayment = {
  invoice_id: string;
  transaction_id: string | null;
  provider_payment_id: string | null;
  provider: string;
  amount: number;
  status: string;
  refunded_amount: number;
  kind: string;
  subscription_id: number | null;
  period_index: number | null;
};

export type ReconcileCounts = {
  /** CloudPayments ledger transactions (payments and refunds). */
  ledgerTransactions: number;
  /** YooKassa ledger payments (its refunds are within them). */
  yooKassaPayments: number;
  /** First orders opened and never paid (the payer met a provider that was down and came back later). */
  abandonedOrders: number;
};

const minor = (units: number) => Math.round(units * 100);

/**
 * Our payments and both providers' ledgers, both ways and to the kopeck: each payment we
 * recorded as taken is at the provider that took it, with the same invoice, amount, outcome
 * and refunds; every transaction at either provider is one of ours; nothing is pending but
 * first orders their payer never paid; and at most one completed renewal per subscription
 * and period, whichever provider took it.
 */
export async function reconcile(
  database: Database,
  ledgers: { cloudPayments: LedgerEntry[]; yooKassa: YooKassaLedgerEntry[] },
  problem: (text: string) => void,
): Promise<ReconcileCounts> {
  const ours = await database.all<OurPayment>(
    `SELECT invoice_id, transaction_id, provider_payment_id, provider, amount, status, refunded_amount, kind,
       subscription_id, period_index FROM payments ORDER BY id`,
  );
  const counts: ReconcileCounts = {
    ledgerTransactions: ledgers.cloudPayments.length,
    yooKassaPayments: ledgers.yooKassa.length,
    abandonedOrders: 0,
  };
  const periods = new Set<string>();
  const abandoned = new Set<string>();
  for (const payment of ours) {
    if (payment.status === "pending") {
      // An order whose payer never paid (its provider was down; a new order was paid later).
      if (payment.kind === "first" && payment.transaction_id === null) {
        counts.abandonedOrders++;
        abandoned.add(payment.invoice_id);
      } else problem(`${payment.invoice_id} still pending`);
    }
    if (payment.kind === "renewal" && (payment.status === "completed" || payment.status === "refunded")) {
      const key = `${payment.subscription_id}/${payment.period_index}`;
      if (periods.has(key)) problem(`double charge: subscription/period ${key}`);
      periods.add(key);
    }
  }
  reconcileCloudPayments(
    ours.filter((payment) => payment.provider === "cloudpayments"),
    ledgers.cloudPayments,
    problem,
  );
  reconcileYooKassa(
    ours.filter((payment) => payment.provider === "yookassa"),
    ledgers.yooKassa,
    abandoned,
    problem,
  );
  return counts;
}

/** A payment with no transaction at the bank: free, declined before it was sent, or an unpaid order. */
function isWithoutTransaction(payment: OurPayment, problem: (text: string) => void): boolean {
  if (payment.transaction_id !== null && !payment.transaction_id.startsWith("free-")) return false;
  if (payment.amount > 0 && payment.status !== "declined" && payment.status !== "pending")
    problem(`${payment.invoice_id}: ${payment.status} without a bank transaction`);
  return true;
}

function reconcileCloudPayments(ours: OurPayment[], ledger: LedgerEntry[], problem: (text: string) => void) {
  const paymentsAtBank = new Map(
    ledger.filter((entry) => entry.kind === "payment").map((entry) => [entry.transactionId, entry]),
  );
  const refundsAtBank = new Map<string, number>();
  for (const entry of ledger.filter((item) => item.kind === "refund"))
    refundsAtBank.set(entry.invoiceId, (refundsAtBank.get(entry.invoiceId) ?? 0) + minor(entry.amount));
  const seen = new Set<string>();
  for (const payment of ours) {
    if (isWithoutTransaction(payment, problem) || payment.transaction_id === null) continue;
    seen.add(payment.transaction_id);
    const bank = paymentsAtBank.get(payment.transaction_id);
    if (!bank) {
      problem(`${payment.invoice_id}: transaction ${payment.transaction_id} not in the CloudPayments ledger`);
      continue;
    }
    const expectedStatus = payment.status === "declined" ? "Declined" : "Completed";
    if (
      bank.invoiceId !== payment.invoice_id ||
      minor(bank.amount) !== payment.amount ||
      bank.status !== expectedStatus
    )
      problem(
        `${payment.invoice_id}: ours ${payment.amount} ${payment.status}, CloudPayments ${bank.invoiceId} ${bank.amount} ${bank.status}`,
      );
    const refunded = refundsAtBank.get(payment.invoice_id) ?? 0;
    if (refunded !== payment.refunded_amount)
      problem(
        `${payment.invoice_id}: refunded ${payment.refunded_amount} by us, ${refunded} at CloudPayments`,
      );
    if ((payment.status === "refunded") !== payment.refunded_amount > 0)
      problem(`${payment.invoice_id}: status ${payment.status} with ${payment.refunded_amount} refunded`);
  }
  for (const [transactionId, entry] of paymentsAtBank)
    if (!seen.has(transactionId))
      problem(
        `CloudPayments transaction ${transactionId} (${entry.invoiceId} ${entry.status}) missing from our payments`,
      );
}

const yooKassaStatusOf = (status: string) =>
  status === "declined" ? "canceled" : status === "pending" ? "pending" : "succeeded";

function reconcileYooKassa(
  ours: OurPayment[],
  ledger: YooKassaLedgerEntry[],
  abandoned: Set<string>,
  problem: (text: string) => void,
) {
  const atYooKassa = new Map(ledger.map((entry) => [entry.id, entry]));
  const seen = new Set<string>();
  for (const payment of ours) {
    // YooKassa names a payment while it waits for its payer: an unpaid order has its id too.
    const id = payment.transaction_id ?? payment.provider_payment_id;
    if (id === null || id.startsWith("free-")) {
      isWithoutTransaction(payment, problem);
      continue;
    }
    seen.add(id);
    const entry = atYooKassa.get(id);
    if (!entry) {
      problem(`${payment.invoice_id}: payment ${id} not in the YooKassa ledger`);
      continue;
    }
    const refunds = entry.refunds.reduce((sum, refund) => sum + minor(refund.amount), 0);
    if (
      entry.metadata.invoice_id !== payment.invoice_id ||
      minor(entry.amount) !== payment.amount ||
      entry.status !== yooKassaStatusOf(payment.status)
    )
      problem(
        `${payment.invoice_id}: ours ${payment.amount} ${payment.status}, YooKassa ${entry.metadata.invoice_id} ${entry.amount} ${entry.status}`,
      );
    if (refunds !== payment.refunded_amount || minor(entry.refundedAmount) !== payment.refunded_amount)
      problem(`${payment.invoice_id}: refunded ${payment.refunded_amount} by us, ${refunds} at YooKassa`);
    if ((payment.status === "refunded") !== payment.refunded_amount > 0)
      problem(`${payment.invoice_id}: status ${payment.status} with ${payment.refunded_amount} refunded`);
  }
  for (const entry of ledger) {
    if (seen.has(entry.id)) continue;
    if (entry.status === "pending" && abandoned.has(entry.metadata.invoice_id ?? "")) continue;
    problem(
      `YooKassa payment ${entry.id} (${entry.metadata.invoice_id} ${entry.status}) missing from our payments`,
    );
  }
}
