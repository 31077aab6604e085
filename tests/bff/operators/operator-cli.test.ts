import { existsSync, mkdtempSync } from "node:fs";
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

/**
 * The CLI as a process: `database` is the line naming the database it works on (stderr, first),
 * `output` everything else it printed.
 */
type CliRun = { exitCode: number; database: string | undefined; output: string };
function cli(...args: string[]): CliRun;
function cli(settings: Record<string, string>, ...args: string[]): CliRun;
function cli(first: string | Record<string, string>, ...rest: string[]): CliRun {
  const [settings, args] = typeof first === "string" ? [{}, [first, ...rest]] : [first, rest];
  const run = Bun.spawnSync(["bun", "bff/cli.ts", ...args], {
    env: { ...process.env, ...environment, LOG_LEVEL: "error", ...settings },
    stdout: "pipe",
    stderr: "pipe",
  });
  const lines = `${run.stderr.toString()}${run.stdout.toString()}`.trim().split("\n");
  const database = lines[0]?.startsWith("Database: ") ? lines.shift()?.slice("Database: ".length) : undefined;
  return { exitCode: run.exitCode, database, output: lines.join("\n").trim() };
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

    // Each says which database it worked on: the server's own file, through the server.
    expect(created.database).toBe(
      `${environment.DATABASE_PATH} (SQLite, through the running server, pid ${server.child.pid})`,
    );
    expect(cli("create", "cli.support", "support")).toMatchObject({ exitCode: 1 });
    expect(cli("create", "cli.other", "owner")).toMatchObject({ exitCode: 2 });
    expect(cli("node", "fi-hel-1").output).toMatch(/^Node "fi-hel-1" key \(shown once\): \S+$/);
    expect(cli("node", "FI-HEL-1")).toMatchObject({
      exitCode: 1,
      output: 'A node named "fi-hel-1" already exists; choose another name.',
    });

    const reset = cli("reset-password", "cli.support", "a new password of twenty");
    expect(reset).toMatchObject({ exitCode: 0, output: 'New password for "cli.support" set.' });
    expect((await login(app, "cli.support", password)).status).toBe(401);
    expect((await login(app, "cli.support", "a new password of twenty")).status).toBe(200);

    // Unlock, handed to the running server like the others.
    expect(cli("unlock", "cli.support")).toMatchObject({
      exitCode: 0,
      output: 'Unlocked "cli.support": its failed sign-ins are forgotten.',
    });
    expect(cli("unlock", "cli.nobody")).toMatchObject({ exitCode: 1 });

    expect(cli("disable", "cli.support")).toMatchObject({ exitCode: 0 });

    // A server of another file in the same folder holds the socket: the command is not
    // handed to it, and the file named, not being there, is not made either.
    const beside = join(directory, "data", "other.db");
    const besideRun = cli({ DATABASE_PATH: beside }, "node", "beside-1");
    expect(besideRun).toMatchObject({ exitCode: 1, database: `${beside} (SQLite)` });
    expect(besideRun.output).toContain(`There is no database at ${beside}.`);
    expect(existsSync(beside)).toBe(false);
    expect(cli("node", "beside-1")).toMatchObject({ exitCode: 0 });
    expect((await login(app, "cli.support", "a new password of twenty")).status).toBe(401);

    // Stopped, the server leaves the file to the CLI, which opens it itself.
    server.child.kill("SIGTERM");
    expect(await server.child.exited).toBe(0);
    const alone = cli("create", "cli.offline", "admin", "an offline password here");
    expect(alone).toEqual({
      exitCode: 0,
      database: `${environment.DATABASE_PATH} (SQLite)`,
      output: 'Created admin "cli.offline".',
    });
    const again = await startProcess("tests/helpers/server-process.ts", environment);
    running.push(again.child);
    expect(
      (await login(remoteApp(`http://127.0.0.1:${again.port}`), "cli.offline", "an offline password here"))
        .status,
    ).toBe(200);
  }, 300_000);

  test("a command that would have to make a database is refused, saying how to name the product's, and nothing is made", () => {
    // The issue: run without the server's DATABASE_PATH, the CLI made a database of its own
    // and printed a node key the live product refused.
    const elsewhere = join(directory, "elsewhere", "data", "app.db");
    const refused = cli({ DATABASE_PATH: elsewhere }, "node", "vpn1");
    expect(refused).toMatchObject({ exitCode: 1, database: `${elsewhere} (SQLite)` });
    expect(refused.output).toContain(`There is no database at ${elsewhere}.`);
    expect(refused.output).toContain("DATABASE_PATH=/opt/kannt/data/app.db npm run operator -- node vpn1");
    expect(refused.output).toContain("DATABASE_URL=postgres://");
    expect(refused.output).not.toMatch(/node_\S+/);
    expect(existsSync(join(directory, "elsewhere"))).toBe(false);

    // The same for every command; a password given is never repeated.
    const create = cli({ DATABASE_PATH: elsewhere }, "create", "cli.new", "admin", "a secret password here");
    expect(create.exitCode).toBe(1);
    expect(create.output).toContain("npm run operator -- create cli.new …");
    expect(create.output).not.toContain("a secret password here");
    for (const command of [
      ["reset-password", "someone"],
      ["disable", "someone"],
      ["unlock", "someone"],
    ])
      expect(cli({ DATABASE_PATH: elsewhere }, ...command)).toMatchObject({ exitCode: 1 });
    expect(existsSync(join(directory, "elsewhere"))).toBe(false);

    // A database only in memory would be gone with the command.
    const memory = cli({ DATABASE_PATH: ":memory:" }, "node", "vpn1");
    expect(memory).toMatchObject({ exitCode: 1, database: ":memory: (SQLite in memory)" });
    expect(memory.output).toContain("lives only inside one process");

    // A command not understood touches no data and names none.
    const mistyped = cli({ DATABASE_PATH: elsewhere }, "nodes", "vpn1");
    expect(mistyped).toMatchObject({ exitCode: 2, database: undefined });
    expect(mistyped.output).toMatch(/^usage: npm run operator -- /);
    expect(cli({ DATABASE_PATH: elsewhere }, "create", "x", "owner")).toMatchObject({ exitCode: 2 });
    expect(existsSync(join(directory, "elsewhere"))).toBe(false);
  });
});
