import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "@playwright/test";
import { chromiumLaunch } from "./tests/helpers/chromium";

const port = Number(process.env.E2E_PORT ?? 3210);
/**
 * The browser server's throwaway data folder, fresh for each run: made once, in the runner
 * (its workers inherit the variable, and load this file again without making another), so a
 * test can hand a command to that server the way an operator does (tests/helpers/browser/cli.ts).
 */
process.env.E2E_DATA_DIRECTORY ??= mkdtempSync(join(tmpdir(), "kannt-e2e-"));

/**
 * Tests that change the shared server's payment routes (DESIGN §6): they run alone, after
 * every other test, which all buy through CloudPayments as the demo's routes have it.
 */
const routesTests = /panel\/panel-payments\.spec\.ts$/;

// Browser tests drive Debian's Chromium against the real server on a throwaway database.
export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  // Three at a time on the 2-core machine: a test spends much of its time waiting on the
  // server and on its page going quiet, and a third worker fills those waits (the 48
  // language screens: 4m40 with two, 3m50 with four, on the quiet machine).
  workers: 3,
  retries: 0,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  // Only stops a test that hangs. A panel test spends up to 20 s on the staff captcha's proof
  // of work alone when the two cores are busy with other work, before its own steps.
  timeout: 60_000,
  use: {
    baseURL: `http://localhost:${port}`,
    // A failed test keeps its trace with DOM snapshots, but no screencast: its frames were
    // encoded for every test, passing or not (the language screens: 4m40 → 4m19).
    trace: { mode: "retain-on-failure", screenshots: false },
    launchOptions: chromiumLaunch,
  },
  projects: [
    { name: "browser", testIgnore: routesTests },
    { name: "routes", testMatch: routesTests, dependencies: ["browser"] },
  ],
  webServer: {
    command: `bun tests/helpers/e2e-server.ts`,
    url: `http://localhost:${port}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      PORT: String(port),
      E2E_DATA_DIRECTORY: process.env.E2E_DATA_DIRECTORY,
      LOG_LEVEL: "warn",
      ADMIN_USERNAME: "e2e.admin",
      ADMIN_PASSWORD: "e2e admin password 1",
      // The staff captcha's proof of work at the API tests' size: still solved for real, by
      // the login form's widget and by the tests, but not 400,000 hashes each time on two cores.
      ALTCHA_MAX_NUMBER: "5000",
    },
  },
});
