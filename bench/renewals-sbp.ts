import { approvingCards } from "../bff/adapters/sandbox/cards";
import { seedPayingCustomers, seedSbpAutopayCustomers } from "../tests/helpers/seed-paying-customers";
import { chargedExactlyOnce, describeCpu, loadAverage, timedPasses } from "./renewal-passes";
import { makeDue, renewalConcurrency, seedingInFlight, slowBankLatency, startRig } from "./renewal-rig";
import { type LedgerEntry, sbpSettling } from "./sbp-settling";

/**
 * DESIGN §10's renewals against a bank as slow as a real one (300 ± 50 ms), with a share of
 * the due customers paying by SBP autopay (DESIGN §6): their charges answer Pending and are
 * paid only when the bank's Pay notification comes back: the payer's bank decides one latency
 * (± jitter) after the answer, as slowly as the bank answers. One instance on its SQLite file, the bank as its own process (renewal-rig.ts).
 * Card customers paid their first payment with a card of their own, SBP customers an SBP QR
 * with autopay allowed at the same bank, so every binding a renewal charges is one the
 * bank's own code saved. Timed: the pass (charges sent and answered), and until every SBP
 * charge is paid in our database (the bank's GET /api/dev/sandbox/sbp/settled answers once
 * each Pay was answered by the shop, which answers once it committed). Then every customer
 * is checked charged exactly once, in the bank's ledger and in our payments.
 *
 * `bun bench/renewals-sbp.ts`: 10,000 customers (`CUSTOMERS`), 30% of them SBP (`SBP_SHARE`).
 * Budgets: the pass at least 90% of RENEWAL_CONCURRENCY / latency, and every customer renewed
 * and every SBP charge paid within 2 minutes.
 */
const customers = Number(process.env.CUSTOMERS ?? 10_000);
const sbpShare = Number(process.env.SBP_SHARE ?? 0.3);
const latency = slowBankLatency();
const concurrency = renewalConcurrency();
const budgetSeconds = 120;
const rateBudget = (0.9 * concurrency) / (latency.latencyMs / 1000);
const sbpCount = Math.round(customers * sbpShare);
const cardCount = customers - sbpCount;

console.log(
  `${customers} customers due at once (${cardCount} cards, ${sbpCount} SBP autopay), one SQLite instance, the bank apart answering in ${latency.latencyMs} ± ${latency.jitterMs} ms, RENEWAL_CONCURRENCY ${concurrency}; load ${loadAverage()}`,
);
const rig = await startRig({ shops: 1, latency });
let isMet = false;
try {
  const [shop] = rig.shops;
  if (!shop) throw new Error("no shop");
  const seedingStarted = performance.now();
  const inFlight = Math.ceil(seedingInFlight(rig) / 2);
  const options = { bankOrigin: rig.bank.origin, inFlight };
  const [cardAccounts, sbpAccounts] = await Promise.all([
    seedPayingCustomers(shop.origin, cardCount, approvingCards, "payer", options),
    seedSbpAutopayCustomers(shop.origin, sbpCount, "sbp-payer", options),
  ]);
  await makeDue(rig);
  const seeding = (performance.now() - seedingStarted) / 1000;

  const started = performance.now();
  const result = await timedPasses(rig);
  const settling = await fetch(`${rig.bank.origin}/api/dev/sandbox/sbp/settled`);
  if (!settling.ok)
    throw new Error(`the bank could not say its SBP charges were settled: ${settling.status}`);
  const settledSeconds = (performance.now() - started) / 1000;

  const [pass] = result.passes;
  const answered = (pass?.completed ?? 0) + (pass?.pending ?? 0);
  const ledger = (await (await fetch(`${rig.bank.origin}/api/dev/sandbox/ledger`)).json()) as LedgerEntry[];
  const sbpCharges = ledger.filter(
    (entry) => entry.invoiceId.startsWith("renewal-") && entry.method === "sbp",
  );
  const problems = await chargedExactlyOnce(rig, [...cardAccounts, ...sbpAccounts]);
  const paidSbp = sbpSettling(ledger);
  if (paidSbp.unpaid > 0) problems.push(`${paidSbp.unpaid} SBP charges have no Pay the shop took`);
  if (pass?.completed !== cardCount || pass?.pending !== sbpCount || sbpCharges.length !== sbpCount)
    problems.push(
      `the pass counted ${JSON.stringify(pass)}, the bank holds ${sbpCharges.length} SBP renewal charges; expected ${cardCount} completed and ${sbpCount} pending`,
    );
  if (problems.length > 0)
    throw new Error(`not every customer was charged exactly once:\n${problems.join("\n")}`);
  const rate = answered / result.seconds;
  console.log(
    `the pass: ${answered} charges (${pass?.completed} cards paid, ${pass?.pending} SBP answered Pending) in ${result.seconds.toFixed(1)} s = ${rate.toFixed(0)}/s (budget: at least ${rateBudget.toFixed(0)}/s, 90% of ${concurrency} / ${latency.latencyMs} ms); ${describeCpu({ ...result, completed: answered })}`,
  );
  console.log(
    `every SBP charge paid in our database ${settledSeconds.toFixed(1)} s after the pass began, ${(settledSeconds - result.seconds).toFixed(1)} s after it ended (budget: all ${customers} within ${budgetSeconds} s); each customer charged exactly once, in the bank's ledger and in our payments; load ${loadAverage()} (seeded in ${seeding.toFixed(0)} s)`,
  );
  console.log(
    `each SBP charge paid in our database (its Pay answered) a median ${paidSbp.medianMs} ms after the bank booked it, the slowest ${paidSbp.slowestMs} ms; the last ${paidSbp.lastPaidSeconds.toFixed(1)} s after the pass's first charge`,
  );
  isMet = rate >= rateBudget && settledSeconds <= budgetSeconds;
} finally {
  await rig.stop();
}
if (!isMet) process.exit(1);
