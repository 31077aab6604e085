import { defineConfig } from "@playwright/test";
import { chromiumLaunch } from "./tests/helpers/chromium";

const port = Number(process.env.E2E_PORT ?? 3210);

// Browser tests drive Debian's Chromium against the real server on a throwaway database.
export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  workers: 2,
  retries: 0,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  // Only stops a test that hangs. A panel test spends up to 20 s on the staff captcha's proof
  // of work alone when the two cores are busy with other work, before its own steps.
  timeout: 60_000,
  use: {
    baseURL: `http://localhost:${port}`,
    trace: "retain-on-failure",
    launchOptions: chromiumLaunch,
  },
  webServer: {
    command: `bun tests/helpers/e2e-server.ts`,
    url: `http://localhost:${port}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      PORT: String(port),
      LOG_LEVEL: "warn",
      ADMIN_USERNAME: "e2e.admin",
      ADMIN_PASSWORD: "e2e admin password 1",
    },
  },
});
