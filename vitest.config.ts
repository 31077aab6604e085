import { configDefaults, defineConfig } from "vitest/config";

/**
 * Tests about the SQLite file itself (its folder, its permissions, its lock, secrets kept
 * beside it) or that start the server as a process on a database file: they say nothing
 * about PostgreSQL, so they run once, on SQLite.
 */
export const sqliteFileTests = [
  "tests/bff/access/access-real-node.test.ts",
  "tests/bff/access/access-censor.test.ts",
  "tests/bff/server/config-and-database.test.ts",
  "tests/bff/server/control-socket-owner.test.ts",
  "tests/bff/server/data-folder.test.ts",
  "tests/bff/server/log-secrets.test.ts",
  "tests/bff/operators/operator-cli.test.ts",
  "tests/bff/subscriptions/renewal-crash.test.ts",
  "tests/bff/server/startup-modes.test.ts",
  // The HTTP server's idle limits: 12 s of real waiting that no engine changes.
  "tests/bff/server/keep-alive.test.ts",
];

/**
 * They need the PostgreSQL cluster: the query layer's handling of conflicts and deadlocks,
 * the schema compared with SQLite's, and two server instances sharing one database (DESIGN §15).
 */
export const postgresOnlyTests = [
  "tests/bff/access/subscription/access-change-gaps.test.ts",
  "tests/bff/server/postgres-conflicts.test.ts",
  "tests/bff/operators/operator-cli-postgres.test.ts",
  "tests/bff/subscriptions/renewal-claims-postgres.test.ts",
  "tests/bff/server/schema-parity.test.ts",
  "tests/bff/server/two-instances.test.ts",
  "tests/bff/payments/shared-bank.test.ts",
  "tests/bff/server/shared-state.test.ts",
];

/**
 * What every project runs with, the SQLite projects of vitest.sqlite.config.ts included (a
 * project declared in a file of its own takes nothing from this file by itself).
 *
 * Runs under Bun (`bun --bun x vitest run`) so tests get bun:sqlite and Bun's APIs.
 * Bun lacks the child-process channel Vitest's default "forks" pool needs, so use threads.
 * Room for a machine busy with other work (two cores shared by several test runs make
 * a 1 s test take 20 s): a busy machine must make a test slower, never red. Timeouts
 * only stop a test that hangs; tests that run longer set their own (3-4 times their
 * duration on such a machine).
 */
export const sharedTestSettings = {
  pool: "threads",
  // Vitest's default is one worker fewer than the cores: one on a 2-core CI machine. Most
  // files wait on server processes, timers and PostgreSQL, so two workers nearly halved
  // the run (477 s → 269 s measured), and a third fills what two still leave idle (the
  // whole run 433 s → 392 s on 26 November 2026) without starving the processes they start.
  maxWorkers: 3,
  testTimeout: 120_000,
  hookTimeout: 180_000,
} as const;

/**
 * The server's tests share one module graph per worker instead of importing the app afresh
 * for every file: the import was two thirds of their time (71 API files on SQLite: 263 s
 * of CPU isolated, 109 s shared, on 26 November 2026). Each test makes its own app, database
 * and clock, so nothing a file leaves in a module reaches the next one's results.
 */
export const apiTestIsolation = { isolate: false } as const;

// The server's tests run twice (DESIGN §15): once on SQLite, once on a throwaway PostgreSQL
// cluster started for the run (`--project sqlite` or `--project postgres` runs one; the
// SQLite one holds the unit tests too, see vitest.sqlite.config.ts).
export default defineConfig({
  test: {
    ...sharedTestSettings,
    projects: [
      "vitest.sqlite.config.ts",
      {
        extends: true,
        test: {
          name: "postgres",
          include: ["tests/bff/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...sqliteFileTests],
          env: { KANNT_TEST_DATABASE: "postgres" },
          globalSetup: ["tests/helpers/postgres-global-setup.ts"],
          ...apiTestIsolation,
        },
      },
    ],
  },
});
