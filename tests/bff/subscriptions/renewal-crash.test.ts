import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { treaty } from "@elysiajs/eden";
import type { Subprocess } from "bun";
import { afterAll, expect, test } from "vitest";
import type { App } from "../../../bff/app";
import { dataOf } from "../../helpers/api";
import type { LedgerEntry } from "../../helpers/payments";
import { seedPayingCustomers } from "../../helpers/seed-paying-customers";
import { startProcess } from "../../helpers/start-process";

/**
 * The real server as its own process on `directory`, the scheduler off (passes are run by
 * hand). Its sandbox bank answers in 100 ± 50 ms, so the kill lands while the pass has its
 * window of charges in flight, as it would against a real bank.
 */
async function startServerProcess(directory: string) {
  const { child, port } = await startProcess("tests/helpers/server-process.ts", {
    DATABASE_PATH: join(directory, "app.db"),
    BILLING_INTERVAL_SECONDS: "0",
    STATIC_DIR: join(directory, "no-site"),
    SANDBOX_LATENCY_MS: "100",
    SANDBOX_JITTER_MS: "50",
  });
  const origin = `http://127.0.0.1:${port}`;
  return { child, origin, api: treaty<App>(origin, { parseDate: false }).api };
}

const running: Subprocess[] = [];
afterAll(() => {
  for (const child of running) child.kill(9);
});

test("kill -9 in the middle of a renewal run, restart: zero double charges and zero missed renewals", async () => {
  const directory = mkdtempSync(join(tmpdir(), "kannt-crash-"));
  const customers = 1500;
  const first = await startServerProcess(directory);
  running.push(first.child);
  const accounts = await seedPayingCustomers(first.origin, customers);
  // A pass now sends the pre-charge notices the renewals need 24 hours ahead (DESIGN §13(a)).
  await first.api.dev.billing.run.post();
  await first.api.dev.clock.post({ advanceDays: 1.5 });

  // Start a pass and kill the process once the bank has charged some, not all.
  void first.api.dev.billing.run.post().catch(() => undefined);
  // However long the pass takes to start on a busy machine: the wait ends at the charges.
  let chargedBeforeCrash = 0;
  for (;;) {
    const ledger = await dataOf(first.api.dev.sandbox.ledger.get({ query: {} }));
    chargedBeforeCrash = ledger.filter((entry) => entry.invoiceId.startsWith("renewal-")).length;
    if (chargedBeforeCrash >= 20) break;
    await Bun.sleep(5);
  }
  first.child.kill(9);
  await first.child.exited;
  expect(chargedBeforeCrash).toBeGreaterThan(0);
  expect(chargedBeforeCrash).toBeLessThan(customers);

  const second = await startServerProcess(directory);
  running.push(second.child);
  const pass = await dataOf(second.api.dev.billing.run.post());
  const again = await dataOf(second.api.dev.billing.run.post());
  expect(again.charged).toBe(0);

  const ledger = await dataOf(second.api.dev.sandbox.ledger.get({ query: {} }));
  const renewalsByAccount = new Map<string, LedgerEntry[]>();
  for (const entry of ledger.filter((item) => item.invoiceId.startsWith("renewal-"))) {
    renewalsByAccount.set(entry.accountId, [...(renewalsByAccount.get(entry.accountId) ?? []), entry]);
  }
  const doubleCharged = [...renewalsByAccount.values()].filter(
    (entries) => entries.filter((entry) => entry.status === "Completed").length > 1,
  );
  const missed = accounts.filter(
    (account) =>
      (renewalsByAccount.get(account) ?? []).filter((entry) => entry.status === "Completed").length !== 1,
  );
  expect(doubleCharged).toEqual([]);
  expect(missed).toEqual([]);
  expect(
    ledger.filter((entry) => entry.invoiceId.startsWith("renewal-")).every((entry) => entry.amount === 150),
  ).toBe(true);
  // What the crash left half-done was settled by looking invoices up, not by charging again.
  expect((pass.recovered ?? 0) + (pass.charged ?? 0)).toBeGreaterThan(0);
  second.child.kill(9);
}, 600_000);
