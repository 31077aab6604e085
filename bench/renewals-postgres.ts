import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startPostgresCluster } from "../tests/helpers/postgres-cluster";
import { seedPayingCustomers } from "../tests/helpers/seed-paying-customers";
import { cpuSecondsBetween, cpuSecondsByCommand, cpuSecondsOf, median, startProcess } from "./lib";

/**
 * DESIGN §10 on PostgreSQL (§15): two server instances behind one database renew at least
 * 1,000 subscriptions a second in total. A throwaway cluster with fsync and synchronous
 * commits on (a production server's durability); instance A runs the sandbox bank,
 * instance B charges through it (CLOUDPAYMENTS_API_URL), as two demo instances share one
 * bank. Each round seeds fresh paying customers on a fresh database, moves the shared test
 * clock past their renewal date and times both instances' passes, started together, until
 * both have answered. Every customer must be charged exactly once.
 */
const customers = Number(process.env.CUSTOMERS ?? 2000);
const rounds = Number(process.env.ROUNDS ?? 3);
const cluster = await startPostgresCluster({ durable: process.env.DURABLE !== "0", sharedBuffers: "256MB" });
const rates: number[] = [];

type Entry = { invoiceId: string; accountId: string; status: string };

async function instance(databaseUrl: string, bankOrigin?: string) {
  const directory = mkdtempSync(join(tmpdir(), "kannt-renewals-pg-"));
  const server = await startProcess("tests/helpers/server-process.ts", {
    APP_MODE: "demo",
    DATABASE_URL: databaseUrl,
    DATABASE_PATH: join(directory, "app.db"),
    BILLING_INTERVAL_SECONDS: "0",
    STATIC_DIR: join(directory, "no-site"),
    ...(bankOrigin ? { CLOUDPAYMENTS_API_URL: `${bankOrigin}/api/dev/sandbox/cloudpayments` } : {}),
  });
  return { ...server, origin: `http://127.0.0.1:${server.port}` };
}

const post = async (url: string, body?: unknown) =>
  (await (
    await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  ).json()) as Record<string, number>;

try {
  for (let round = 0; round < rounds; round++) {
    const name = `renewals_${round}`;
    await cluster.createDatabase(name);
    const bank = await instance(cluster.url(name));
    const other = await instance(cluster.url(name), bank.origin);
    try {
      const accounts = await seedPayingCustomers(bank.origin, customers);
      await post(`${bank.origin}/api/dev/billing/run`);
      await post(`${bank.origin}/api/dev/clock`, { advanceDays: 1.5 });
      await post(`${other.origin}/api/dev/clock`, { advanceDays: 0 });
      // Where the machine's time went: both instances (A also runs the bank) and PostgreSQL.
      const cpuBefore = {
        bank: cpuSecondsOf(bank.child.pid),
        other: cpuSecondsOf(other.child.pid),
        postgres: cpuSecondsByCommand("postgres"),
      };
      const started = performance.now();
      const passes = await Promise.all([
        post(`${bank.origin}/api/dev/billing/run`),
        post(`${other.origin}/api/dev/billing/run`),
      ]);
      const seconds = (performance.now() - started) / 1000;
      const cpu = {
        bank: cpuSecondsOf(bank.child.pid) - cpuBefore.bank,
        other: cpuSecondsOf(other.child.pid) - cpuBefore.other,
        postgres: cpuSecondsBetween(cpuBefore.postgres, cpuSecondsByCommand("postgres")),
      };
      const completed = passes.reduce((sum, pass) => sum + (pass.completed ?? 0), 0);
      const ledger = (await (await fetch(`${bank.origin}/api/dev/sandbox/ledger`)).json()) as Entry[];
      const charged = new Map<string, number>();
      for (const entry of ledger)
        if (entry.invoiceId.startsWith("renewal-") && entry.status === "Completed")
          charged.set(entry.accountId, (charged.get(entry.accountId) ?? 0) + 1);
      const wrong = accounts.filter((account) => charged.get(account) !== 1);
      if (completed !== customers || wrong.length > 0)
        throw new Error(
          `expected ${customers} renewals, one per customer; got ${JSON.stringify(passes)}, ${wrong.length} customers charged other than once`,
        );
      rates.push(completed / seconds);
      const perRenewalMs = (cpuSeconds: number) => ((cpuSeconds * 1000) / completed).toFixed(2);
      console.log(
        `  CPU: instance A with the bank ${cpu.bank.toFixed(2)} s, instance B ${cpu.other.toFixed(2)} s, PostgreSQL ${cpu.postgres.toFixed(2)} s; ${perRenewalMs(cpu.bank + cpu.other + cpu.postgres)} ms per renewal (A ${perRenewalMs(cpu.bank)}, B ${perRenewalMs(cpu.other)}, PostgreSQL ${perRenewalMs(cpu.postgres)})`,
      );
      console.log(
        `round ${round + 1}: ${completed} renewals (${passes.map((pass) => pass.completed).join(" + ")}) in ${seconds.toFixed(2)} s = ${(completed / seconds).toFixed(0)}/s`,
      );
    } finally {
      bank.stop();
      other.stop();
    }
  }
} finally {
  await cluster.stop();
}
const rate = median(rates);
console.log(`median: ${rate.toFixed(0)} renewals/s over two instances (budget: at least 1000/s)`);
if (rate < 1000) process.exit(1);
