import { startPostgresCluster } from "../tests/helpers/postgres-cluster";
import { median } from "./lib";
import { loadAverage, renewalRounds, shopCpuMsPerRenewal } from "./renewal-passes";
import { noLatency, renewalConcurrency, slowBankLatency } from "./renewal-rig";

/**
 * DESIGN §10 on PostgreSQL (§15): two shop instances on one database, a throwaway cluster
 * with fsync and synchronous commits on (a production server's durability), both charging
 * through the sandbox bank running as its own process (renewal-rig.ts), which notifies the
 * first. Each round seeds fresh paying customers on a fresh database, makes them due and
 * times both instances' passes, started together, until both have answered; median of the
 * rounds. Every customer must be charged exactly once, at the bank and in our payments. The
 * CPU split is printed: each instance, PostgreSQL, and the bank apart.
 *
 * - `bun bench/renewals-postgres.ts`: the bank answers at once (loopback). At least 600
 *   renewals/s in total, and at most 2 ms of CPU per renewal for both instances and
 *   PostgreSQL together.
 * - `bun bench/renewals-postgres.ts --latency`: the bank answers 300 ± 50 ms after it
 *   charged (SANDBOX_LATENCY_MS, SANDBOX_JITTER_MS). At least 180 renewals/s in total.
 */
const isLatency = process.argv.includes("--latency");
const latency = isLatency ? slowBankLatency() : noLatency;
const customers = Number(process.env.CUSTOMERS ?? 2000);
const rounds = Number(process.env.ROUNDS ?? 3);
const cluster = await startPostgresCluster({ durable: process.env.DURABLE !== "0", sharedBuffers: "256MB" });

console.log(
  isLatency
    ? `two PostgreSQL instances, the bank apart answering in ${latency.latencyMs} ± ${latency.jitterMs} ms, RENEWAL_CONCURRENCY ${renewalConcurrency()}; load ${loadAverage()}`
    : `two PostgreSQL instances, the bank apart answering at once; load ${loadAverage()}`,
);
let results: Awaited<ReturnType<typeof renewalRounds>>;
try {
  results = await renewalRounds({
    rounds,
    customers,
    shops: 2,
    latency,
    databaseUrl: async (round) => {
      const name = `renewals_${round}`;
      await cluster.createDatabase(name);
      return cluster.url(name);
    },
  });
} finally {
  await cluster.stop();
}
const rate = median(results.map((result) => result.completed / result.seconds));
const cpuMs = median(results.map(shopCpuMsPerRenewal));
const rateBudget = isLatency ? 180 : 600;
const isCpuBudgeted = !isLatency;
console.log(
  `median: ${rate.toFixed(0)} renewals/s over two instances (budget: at least ${rateBudget}/s); both instances and PostgreSQL ${cpuMs.toFixed(2)} ms of CPU per renewal${isCpuBudgeted ? " (budget: at most 2 ms)" : ""}; load ${loadAverage()}`,
);
if (rate < rateBudget || (isCpuBudgeted && cpuMs > 2)) process.exit(1);
