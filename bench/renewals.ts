import { median } from "./lib";
import { loadAverage, renewalRounds, shopCpuMsPerRenewal } from "./renewal-passes";
import { noLatency, renewalConcurrency, slowBankLatency } from "./renewal-rig";

/**
 * DESIGN §10, renewals on one instance on its SQLite file (synchronous=FULL), end to end:
 * token charges over HTTP to the sandbox bank running as its own process (renewal-rig.ts),
 * its signed notifications back, settlement. Each round seeds fresh paying customers (real
 * first payments at that bank), makes them due and times one scheduler pass; median of the
 * rounds. Every customer must be charged exactly once, at the bank and in our payments.
 *
 * - `bun bench/renewals.ts`: the bank answers at once (loopback). At least 1,000 renewals/s,
 *   and at most 2 ms of the shop's CPU per renewal (the bank's is printed apart).
 * - `bun bench/renewals.ts --latency`: the bank answers 300 ± 50 ms after it charged
 *   (SANDBOX_LATENCY_MS, SANDBOX_JITTER_MS), as a real one does. At least 90% of
 *   RENEWAL_CONCURRENCY / latency: 96/s with 32 charges in flight.
 *
 * Crash safety (kill -9 mid-run) is tests/bff/subscriptions/renewal-crash.test.ts.
 */
const isLatency = process.argv.includes("--latency");
const latency = isLatency ? slowBankLatency() : noLatency;
const customers = Number(process.env.CUSTOMERS ?? 2000);
const rounds = Number(process.env.ROUNDS ?? 3);
const concurrency = renewalConcurrency();

console.log(
  isLatency
    ? `one SQLite instance, the bank apart answering in ${latency.latencyMs} ± ${latency.jitterMs} ms, RENEWAL_CONCURRENCY ${concurrency}; load ${loadAverage()}`
    : `one SQLite instance, the bank apart answering at once; load ${loadAverage()}`,
);
const results = await renewalRounds({ rounds, customers, shops: 1, latency });
const rate = median(results.map((result) => result.completed / result.seconds));
const cpuMs = median(results.map(shopCpuMsPerRenewal));
const rateBudget = isLatency ? (0.9 * concurrency) / (latency.latencyMs / 1000) : 1000;
const isCpuBudgeted = !isLatency;
console.log(
  `median: ${rate.toFixed(0)} renewals/s (budget: at least ${rateBudget.toFixed(0)}/s${isLatency ? `, 90% of ${concurrency} / ${latency.latencyMs} ms` : ""}); the shop's CPU ${cpuMs.toFixed(2)} ms per renewal${isCpuBudgeted ? " (budget: at most 2 ms)" : ""}; load ${loadAverage()}`,
);
if (rate < rateBudget || (isCpuBudgeted && cpuMs > 2)) process.exit(1);
