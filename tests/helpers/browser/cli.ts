import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { expect } from "@playwright/test";

/**
 * `npm run operator -- …` on the browser server's database, as an operator runs it next to the
 * server: the CLI hands the command to the running server over its control socket. The folder
 * is the run's (playwright.config.ts); the CLI is run by the project's own Bun.
 */
export function operatorCommand(args: readonly string[]): string {
  const directory = process.env.E2E_DATA_DIRECTORY;
  if (!directory)
    throw new Error("E2E_DATA_DIRECTORY is not set: run the browser tests through playwright.config.ts");
  const result = spawnSync(join("node_modules", ".bin", "bun"), ["bff/cli.ts", ...args], {
    env: { ...process.env, DATABASE_PATH: join(directory, "app.db") },
    encoding: "utf8",
    timeout: 30_000,
  });
  expect(result.status, `${result.stdout}${result.stderr}`).toBe(0);
  return result.stdout;
}

let counter = 0;
/** A new staff account of its own for a test (parallel tests never share one), made by the CLI. */
export function newOperator(name: string, role: "admin" | "support" = "admin") {
  const username = `e2e.${name}.${Date.now().toString(36)}${(counter++).toString(36)}`;
  const password = `${name} password for a test`;
  operatorCommand(["create", username, role, password]);
  return { username, password };
}
