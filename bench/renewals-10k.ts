import { startPostgresCluster } from "../tests/helpers/postgres-cluster";
import { loadAverage, renewalRounds } from "./renewal-passes";
import { renewalConcurrency, slowBankLatency } from "./renewal-rig";

/**
 * DESIGN §10: 10,000 customers due at once, renewed within 2 minutes against a bank as
 * slow as a real one (300 ± 50 ms; SANDBOX_LATENCY_MS, SANDBOX_JITTER_MS), each charged
 * exactly once, as the bank's ledger and our payments both say. The bank is a process of
 * its own (renewal-rig.ts); every customer paid a first payment there with a card of its
 * own (the approving test numbers give 13,200), so each renewal charges a token the bank
 * saved. Timed: the scheduler's pass (passes, on two instances) from start to answer.
 *
 * `bun bench/renewals-10k.ts`: one instance on its SQLite file. `--postgres`: two
 * instances on one throwaway PostgreSQL database (fsync on). `CUSTOMERS` for a smaller run.
 */
const isPostgres = process.argv.includes("--postgres");
const customers = Number(process.env.CUSTOMERS ?? 10_000);
const budgetSeconds = 120;
const latency = slowBankLatency();
const cluster = isPostgres
  ? await startPostgresCluster({ durable: process.env.DURABLE !== "0", sharedBuffers: "256MB" })
  : undefined;

console.log(
  `${customers} customers due at once, ${isPostgres ? "two PostgreSQL instances" : "one SQLite instance"}, the bank apart answering in ${latency.latencyMs} ± ${latency.jitterMs} ms, RENEWAL_CONCURRENCY ${renewalConcurrency()}; load ${loadAverage()}`,
);
let seconds = Number.POSITIVE_INFINITY;
try {
  const [result] = await renewalRounds({
    rounds: 1,
    customers,
    shops: isPostgres ? 2 : 1,
    latency,
    databaseUrl: cluster
      ? async () => {
          await cluster.createDatabase("renewals_due_day");
          return cluster.url("renewals_due_day");
        }
      : undefined,
  });
  seconds = result?.seconds ?? seconds;
} finally {
  await cluster?.stop();
}
console.log(
  `${customers} renewals in ${seconds.toFixed(1)} s (budget: at most ${budgetSeconds} s), each charged exactly once; load ${loadAverage()}`,
);
if (seconds > budgetSeconds) process.exit(1);
