import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createOperator } from "../bff/modules/operators/accounts";
import { startServer } from "../bff/server";
import { runBillingSimulation } from "../tests/helpers/billing-simulation";

/**
 * DESIGN §10/§13: the billing simulation of tests/bff/subscriptions/billing-simulation.test.ts at full
 * size, 10,000 customers over 24 test-clock months, against the real server (file
 * database, the embedded sandbox bank), through loopback HTTP. Budget: at most 10 minutes on the
 * 2-core machine, every charge reconciled to the kopeck. The database file is read (and
 * the administrator created) beside the running server, as the operator CLI does.
 */
const customers = Number(process.env.CUSTOMERS ?? 10_000);
const months = Number(process.env.MONTHS ?? 24);
const directory = mkdtempSync(join(tmpdir(), "kannt-billing-sim-"));
const databasePath = join(directory, "app.db");
// The real server (Bun.serve, the whole HTTP stack, a file database with synchronous=FULL,
// the embedded sandbox bank) in this process: it holds its database file exclusively, and
// the simulation must read what it did, so it shares its handle; requests still go over
// loopback HTTP.
const { server, database, stopScheduler, stopMail } = await startServer({
  ...process.env,
  PORT: "0",
  LOG_LEVEL: "error",
  DATABASE_PATH: databasePath,
  BILLING_INTERVAL_SECONDS: "0",
  STATIC_DIR: join(directory, "no-site"),
  // A light proof of work for the administrator's many sign-ins (tokens last 15 test-clock minutes).
  ALTCHA_MAX_NUMBER: "5000",
});
// The passes alone queue the pre-charge notices, as in the suite's simulation (no mail
// worker there): the worker queues a notice due within three days on its next tick, in the
// middle of the customers' actions, and the simulation's model prices every notice as a
// pass leaves the accounts (with the worker on, 8 of 39,589 notices and the 2 charges they
// capped differed from it; 0 with it off, 26 November 2026). The pass delivers the mail
// it queues itself.
await stopMail();
const origin = `http://127.0.0.1:${server.port}`;
const started = performance.now();
try {
  const report = await runBillingSimulation({
    send: (request) => {
      const url = new URL(request.url);
      return fetch(`${origin}${url.pathname}${url.search}`, request);
    },
    database,
    createAdmin: async () => {
      const account = { username: "simulation.admin", password: "correct horse battery staple" };
      await createOperator(database, account.username, account.password, "admin", Date.now());
      return account;
    },
    // PORT=0 above: the server's PUBLIC_URL is the demo default for it.
    publicUrl: "http://localhost:0",
    customers,
    months,
    seed: Number(process.env.SEED ?? 10),
    concurrency: 50,
    log: (line) => console.log(`${((performance.now() - started) / 1000).toFixed(0)} s: ${line}`),
  });
  const seconds = (performance.now() - started) / 1000;
  console.log(JSON.stringify({ ...report, problems: report.problems.length }));
  for (const problem of report.problems.slice(0, 20)) console.log(`PROBLEM ${problem}`);
  console.log(
    `${customers} customers over ${months} months: ${seconds.toFixed(0)} s (budget: at most 600 s); reconciliation: ${report.problems.length === 0 ? "100%, no problems" : `${report.problems.length} problems`}`,
  );
  if (report.problems.length > 0 || seconds > 600) process.exitCode = 1;
} finally {
  await stopScheduler();
  await stopMail();
  server.stop(true);
}
