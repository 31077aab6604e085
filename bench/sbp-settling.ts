/** What the SBP renewal bench reads of a bank's ledger entry (GET /api/dev/sandbox/ledger). */
export type LedgerEntry = {
  invoiceId: string;
  method: string;
  dateTime: string;
  notifications: { kind: string; code: number | null; dateTime: string }[];
};

/**
 * How long the SBP renewal charges took to be paid, from the bank's own ledger (its clock):
 * from booking a charge (Pending, during the call) to the shop answering its Pay with code
 * 0, which the shop does once the payment is committed, that is paid in our database. The
 * median and slowest charge, the last Pay counted from the pass's first charge, and how
 * many SBP charges have no Pay answered 0 (none may).
 */
export function sbpSettling(ledger: LedgerEntry[]) {
  const renewals = ledger.filter((entry) => entry.invoiceId.startsWith("renewal-"));
  const firstCharge = Math.min(...renewals.map((entry) => Date.parse(entry.dateTime)));
  const waits: number[] = [];
  let lastPaid = firstCharge;
  let unpaid = 0;
  for (const entry of renewals.filter((charge) => charge.method === "sbp")) {
    const paid = entry.notifications.find(({ kind, code }) => kind === "pay" && code === 0);
    if (!paid) {
      unpaid++;
      continue;
    }
    const paidAt = Date.parse(paid.dateTime);
    waits.push(paidAt - Date.parse(entry.dateTime));
    lastPaid = Math.max(lastPaid, paidAt);
  }
  waits.sort((a, b) => a - b);
  return {
    unpaid,
    medianMs: waits[Math.floor(waits.length / 2)] ?? Number.NaN,
    slowestMs: waits.at(-1) ?? Number.NaN,
    lastPaidSeconds: (lastPaid - firstCharge) / 1000,
  };
}
