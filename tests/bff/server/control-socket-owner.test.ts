import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { canonicalDatabasePath, controlSocketPath } from "../../../bff/platform/control-socket";
import { runDemoScript } from "../../helpers/start-process";

// The operator CLI and backups hand commands and file paths to whatever answers on the
// data folder's control socket: only a socket of this user, closed to others, is asked.

const root = mkdtempSync(join(tmpdir(), "kannt-socket-owner-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const nobody = Number(Bun.spawnSync(["id", "-u", "nobody"]).stdout.toString().trim());

/**
 * A stand-in listening where the server's socket goes, answering as a server of this
 * database would and as if every command succeeded; it counts what it is asked.
 */
function impostor(name: string) {
  const databasePath = join(root, name, "data", "app.db");
  mkdirSync(join(root, name, "data"), { recursive: true, mode: 0o700 });
  const path = controlSocketPath(join(root, name, "data"));
  const asked: string[] = [];
  const server = Bun.serve({
    unix: path,
    fetch(request) {
      asked.push(`${request.method} ${new URL(request.url).pathname}`);
      return Response.json({
        database: canonicalDatabasePath(databasePath),
        pid: process.pid,
        exitCode: 0,
        output: "done by the impostor",
        path: join(root, name, "backups", "impostor.sqlite"),
      });
    },
  });
  return { databasePath, path, asked, stop: () => server.stop(true) };
}

/** Runs `body` with an impostor listening for `name`'s database, and stops it after. */
async function withImpostor(name: string, body: (socket: ReturnType<typeof impostor>) => Promise<void>) {
  const socket = impostor(name);
  try {
    await body(socket);
  } finally {
    socket.stop();
  }
}

/** `bun <script> args…` on the data folder of `databasePath`, without blocking the stand-in. */
async function run(script: string, databasePath: string, ...args: string[]) {
  const { code, stdout, stderr } = await runDemoScript([script, ...args], { DATABASE_PATH: databasePath });
  return { code, output: `${stdout}${stderr}`.trim() };
}

describe("a control socket that is not this user's own", () => {
  test("owned by another user: the operator CLI and the backup refuse it, naming it, and ask it nothing", async () => {
    await withImpostor("foreign", async (socket) => {
      chownSync(socket.path, nobody, nobody);
      const cli = await run("bff/cli.ts", socket.databasePath, "disable", "someone");
      expect(cli.code).toBe(1);
      expect(cli.output).toContain(
        `Refusing the control socket ${socket.path}: it belongs to user ${nobody}`,
      );
      const backup = await run("scripts/backup.ts", socket.databasePath);
      expect(backup.code).toBe(1);
      expect(backup.output).toContain(
        `Refusing the control socket ${socket.path}: it belongs to user ${nobody}`,
      );
      expect(socket.asked).toEqual([]);
    });
  });

  test("open to other users' writes: the operator CLI refuses it, naming it and its mode", async () => {
    await withImpostor("open", async (socket) => {
      chmodSync(socket.path, 0o666);
      const cli = await run("bff/cli.ts", socket.databasePath, "disable", "someone");
      expect(cli.code, cli.output).toBe(1);
      expect(cli.output).toContain(
        `Refusing the control socket ${socket.path}: other users may write to it (mode 666)`,
      );
      expect(socket.asked).toEqual([]);
    });
  });

  test("this user's own, owner-only: the operator CLI asks it", async () => {
    await withImpostor("own", async (socket) => {
      chmodSync(socket.path, 0o600);
      const cli = await run("bff/cli.ts", socket.databasePath, "disable", "someone");
      expect(cli).toEqual({
        code: 0,
        output: `done by the impostor\nDatabase: ${canonicalDatabasePath(socket.databasePath)} (SQLite, through the running server, pid ${process.pid})`,
      });
      expect(socket.asked).toEqual(["GET /status", "POST /operator"]);
    });
  });
});
