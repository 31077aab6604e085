import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { seedPayingCustomers } from "../tests/helpers/seed-paying-customers";
import { median, startProcess } from "./lib";

/**
 * DESIGN §10: at least 1,000 renewals/s end to end against the loopback sandbox
 * gateway: the real server process (file database, synchronous=FULL), real token
 * charges through the gateway client, signed notifications back, settlement. Each
 * round seeds fresh paying customers, moves the test clock past their renewal date
 * and times one scheduler pass. Crash safety (kill -9 mid-run) is proven by
 * tests/bff/subscriptions/renewal-crash.test.ts.
 */
const customers = Number(process.env.CUSTOMERS ?? 2000);
const rounds = Number(process.env.ROUNDS ?? 3);
const rates: number[] = [];

for (let round = 0; round < rounds; round++) {
  const directory = mkdtempSync(join(tmpdir(), "kannt-renewals-"));
  const server = await startProcess("tests/helpers/server-process.ts", {
    DATABASE_PATH: join(directory, "app.db"),
    BILLING_INTERVAL_SECONDS: "0",
    STATIC_DIR: join(directory, "no-site"),
  });
  const origin = `http://127.0.0.1:${server.port}`;
  await seedPayingCustomers(origin, customers);
  // The pre-charge notices go out first, 24 hours or more before the charges (DESIGN §13(a)).
  await fetch(`${origin}/api/dev/billing/run`, { method: "POST" });
  await fetch(`${origin}/api/dev/clock`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: '{"advanceDays":1.5}',
  });
  const started = performance.now();
  const counts = (await (await fetch(`${origin}/api/dev/billing/run`, { method: "POST" })).json()) as {
    completed: number;
    charged: number;
  };
  const seconds = (performance.now() - started) / 1000;
  server.stop();
  if (counts.completed !== customers)
    throw new Error(`expected ${customers} renewals, got ${JSON.stringify(counts)}`);
  rates.push(counts.completed / seconds);
  console.log(
    `round ${round + 1}: ${counts.completed} renewals in ${seconds.toFixed(2)} s = ${(counts.completed / seconds).toFixed(0)}/s`,
  );
}
const rate = median(rates);
console.log(`median: ${rate.toFixed(0)} renewals/s (budget: at least 1000/s)`);
if (rate < 1000) process.exit(1);
