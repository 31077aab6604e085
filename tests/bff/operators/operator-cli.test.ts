import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { afterAll, describe, expect, test } from "vitest";
import { login } from "../../helpers/operators";
import { remoteApp } from "../../helpers/remote-app";
import { startProcess } from "../../helpers/start-process";

/**
 * DESIGN §16: `npm run operator` works while the server runs. The server holds its SQLite
 * file alone, so the CLI hands the command to it over the control socket.
 */
const directory = mkdtempSync(join(tmpdir(), "kannt-cli-"));
const environment = {
  APP_MODE: "demo",
  DATABASE_PATH: join(directory, "data", "app.db"),
  STATIC_DIR: join(directory, "no-site"),
  BILLING_INTERVAL_SECONDS: "0",
  ALTCHA_MAX_NUMBER: "5000",
};
const running: Subprocess[] = [];
afterAll(() => {
  for (const child of running) child.kill(9);
});

function cli(...args: string[]) {
  const run = Bun.spawnSync(["bun", "bff/cli.ts", ...args], {
    env: { ...process.env, ...environment, LOG_LEVEL: "error" },
    stdout: "pipe",
    stderr: "pipe",
  });
  return { exitCode: run.exitCode, output: `${run.stdout.toString()}${run.stderr.toString()}`.trim() };
}

describe("the operator CLI", () => {
  test("creates, resets, unlocks and disables operators while the server runs, and runs alone when it does not", async () => {
    const server = await startProcess("tests/helpers/server-process.ts", environment);
    running.push(server.child);
    const app = remoteApp(`http://127.0.0.1:${server.port}`);

    const created = cli("create", "cli.support", "support");
    expect(created.exitCode, created.output).toBe(0);
    const password = created.output.match(/Password \(shown once\): (\S+)/)?.[1] ?? "";
    expect(password.length).toBeGreaterThanOrEqual(20);
    expect((await login(app, "cli.support", password)).status).toBe(200);

    expect(cli("create", "cli.support", "support")).toMatchObject({ exitCode: 1 });
    expect(cli("create", "cli.other", "owner")).toMatchObject({ exitCode: 2 });
    expect(cli("node", "fi-hel-1").output).toMatch(/^Node "fi-hel-1" key \(shown once\): \S+$/);
    expect(cli("node", "FI-HEL-1")).toEqual({
      exitCode: 1,
      output: 'A node named "fi-hel-1" already exists; choose another name.',
    });

    const reset = cli("reset-password", "cli.support", "a new password of twenty");
    expect(reset).toMatchObject({ exitCode: 0, output: 'New password for "cli.support" set.' });
    expect((await login(app, "cli.support", password)).status).toBe(401);
    expect((await login(app, "cli.support", "a new password of twenty")).status).toBe(200);

    // Unlock, handed to the running server like the others.
    expect(cli("unlock", "cli.support")).toEqual({
      exitCode: 0,
      output: 'Unlocked "cli.support": its failed sign-ins are forgotten.',
    });
    expect(cli("unlock", "cli.nobody")).toMatchObject({ exitCode: 1 });

    expect(cli("disable", "cli.support")).toMatchObject({ exitCode: 0 });
    expect((await login(app, "cli.support", "a new password of twenty")).status).toBe(401);

    // Stopped, the server leaves the file to the CLI, which opens it itself.
    server.child.kill("SIGTERM");
    expect(await server.child.exited).toBe(0);
    const alone = cli("create", "cli.offline", "admin", "an offline password here");
    expect(alone).toMatchObject({ exitCode: 0, output: 'Created admin "cli.offline".' });
    const again = await startProcess("tests/helpers/server-process.ts", environment);
    running.push(again.child);
    expect(
      (await login(remoteApp(`http://127.0.0.1:${again.port}`), "cli.offline", "an offline password here"))
        .status,
    ).toBe(200);
  }, 300_000);
});
