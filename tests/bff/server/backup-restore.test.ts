import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { openDatabase } from "../../../bff/platform/database";
import type { Database } from "../../../db/database";
import { type RunningServer, startCapturedServer } from "../../helpers/captured-process";
import { seedPayingCustomers } from "../../helpers/seed-paying-customers";
import { runDemoScript } from "../../helpers/start-process";
import { testDatabaseUrl, testEngine } from "../../helpers/test-database";

// DESIGN §15: `npm run backup` copies either engine while the server runs, `npm run restore`
// loads the copy into another place, and the customers and their payments come back as they were.

const root = mkdtempSync(join(tmpdir(), "kannt-backup-"));
const running: RunningServer[] = [];
afterAll(async () => {
  for (const server of running) server.child.kill(9);
  rmSync(root, { recursive: true, force: true });
});

type Place = { DATABASE_PATH: string; DATABASE_URL?: string };

/** A database of its own: a SQLite file in a fresh data folder, or a fresh PostgreSQL database. */
async function newPlace(name: string): Promise<Place> {
  const databasePath = join(root, name, "data", "app.db");
  const databaseUrl = await testDatabaseUrl();
  return databaseUrl
    ? { DATABASE_PATH: databasePath, DATABASE_URL: databaseUrl }
    : { DATABASE_PATH: databasePath };
}

/**
 * `bun scripts/<name>.ts args…` as `npm run <name> -- args…` runs it, on `place` and nothing
 * else: no database setting of the shell running the tests reaches it.
 */
async function runScript(name: "backup" | "restore", args: string[], place: Place) {
  const { code, stdout, stderr } = await runDemoScript([`scripts/${name}.ts`, ...args], place);
  return { code, stdout: stdout.trim(), stderr };
}

const open = (place: Place) =>
  openDatabase({ databaseUrl: place.DATABASE_URL, databasePath: place.DATABASE_PATH });

/** What must survive the round trip: who the customers are and what they paid. */
async function ledger(database: Database) {
  return {
    users: await database.all<{ id: number; email: string }>("SELECT id, email FROM users ORDER BY id"),
    payments: await database.all<{
      id: number;
      user_id: number | null;
      invoice_id: string;
      amount: number;
      status: string;
    }>("SELECT id, user_id, invoice_id, amount, status FROM payments ORDER BY id"),
  };
}

const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);

test(`${testEngine()}: a backup taken while the server runs restores elsewhere with the same customers and payments`, async () => {
  const source = await newPlace("source");
  const server = await startCapturedServer({
    ...source,
    APP_MODE: "demo",
    BILLING_INTERVAL_SECONDS: "0",
    STATIC_DIR: join(root, "no-site"),
  });
  running.push(server);
  await seedPayingCustomers(server.origin, 5);

  // No file named: a new one in backups/ beside the data folder, owner-only like the data.
  const backup = await runScript("backup", [], source);
  expect(backup.stderr).toBe("");
  expect(backup.code).toBe(0);
  const extension = source.DATABASE_URL ? "pgdump" : "sqlite";
  expect(backup.stdout).toMatch(
    new RegExp(`^${join(root, "source", "backups")}/kannt-\\d{8}T\\d{6}Z\\.${extension}$`),
  );
  expect(modeOf(backup.stdout)).toBe("600");
  expect(modeOf(dirname(backup.stdout))).toBe("700");

  // A backup never overwrites a file.
  const again = await runScript("backup", [backup.stdout], source);
  expect(again.code).toBe(1);
  expect(again.stderr).toContain("already exists");

  // A restore never pulls the database from under a running server.
  const underServer = await runScript("restore", [backup.stdout], source);
  expect(underServer.code).toBe(1);
  expect(underServer.stderr).toMatch(/stop (it|them) first/);

  await server.stop();
  if (!source.DATABASE_URL) {
    // With the server gone (its socket left behind, as after a crash), the file is copied directly.
    const offline = await runScript("backup", [join(root, "offline.sqlite")], source);
    expect(offline.stderr).toBe("");
    expect(offline.code).toBe(0);
  }

  const notBackup = join(root, "notes.txt");
  writeFileSync(notBackup, "not a database");
  const refused = await runScript("restore", [notBackup], await newPlace("refused"));
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain("is not a backup");

  const target = await newPlace("restored");
  const restored = await runScript("restore", [backup.stdout], target);
  expect(restored.code).toBe(0);
  expect(restored.stdout).toMatch(/^Restored .+: 5 users, \d+ payments\.$/);

  const [original, copy] = await Promise.all([open(source), open(target)]);
  try {
    const before = await ledger(original);
    expect(before.users).toHaveLength(5);
    expect(before.payments.filter((payment) => payment.status === "completed")).toHaveLength(5);
    expect(await ledger(copy)).toEqual(before);
  } finally {
    await Promise.all([original.close(), copy.close()]);
  }
  if (!target.DATABASE_URL) expect(modeOf(target.DATABASE_PATH)).toBe("600");
}, 300_000);
