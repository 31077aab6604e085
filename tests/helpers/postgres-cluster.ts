import { type ChildProcess, execFile, spawn } from "node:child_process";
import { chownSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import postgres from "postgres";
import { findPostgresBin, oldestPostgresMajor } from "../../scripts/postgres-bin";

/**
 * A throwaway PostgreSQL cluster for tests and local runs (DESIGN §15): Debian's
 * `postgresql` binaries, a data folder under /tmp, trust authentication on 127.0.0.1 and a
 * free port, durability off (nothing in it outlives the run). `stop()` ends the server and
 * removes the folder.
 */
export type PostgresCluster = {
  /** postgres://postgres@127.0.0.1:<port>/<database>, the `postgres` database by default. */
  url(database?: string): string;
  /** CREATE DATABASE name [TEMPLATE template]. */
  createDatabase(name: string, template?: string): Promise<void>;
  stop(): Promise<void>;
};

const run = promisify(execFile);

/** The migrated, empty database the tests' PostgreSQL databases are copied from. */
export const templateDatabase = "kannt_template";

const installHint = `Install it with: apt-get install postgresql (PostgreSQL ${oldestPostgresMajor} or newer), or set POSTGRES_BIN to the folder holding initdb and postgres.`;

/** PostgreSQL refuses to run as root: as root, its programs run as the `postgres` account. */
function accountOf(name: string): { uid: number; gid: number } {
  const line = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((entry) => entry.startsWith(`${name}:`));
  if (!line) {
    throw new Error(
      `PostgreSQL cannot run as root and there is no "${name}" account to run it as. ${installHint}`,
    );
  }
  const [, , uid, gid] = line.split(":");
  return { uid: Number(uid), gid: Number(gid) };
}

const isRoot = () => process.getuid?.() === 0;

/** The command line that runs `program` as the postgres account (itself when not root). */
const asPostgres = (program: string, args: string[]): [string, string[]] =>
  isRoot() ? ["runuser", ["-u", "postgres", "--", program, ...args]] : [program, args];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** A database name as it may appear unquoted in SQL: the names here are ours, never input. */
function checkedName(name: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`Not a plain database name: ${name}`);
  return name;
}

/**
 * Creates a database on the cluster at `adminUrl` (a URL of its `postgres` database), copied
 * from `template` when given. A template must have no open connections while it is copied.
 */
export async function createDatabaseOn(adminUrl: string, name: string, template?: string): Promise<void> {
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {}, connect_timeout: 10 });
  try {
    await createDatabaseWith(admin, name, template);
  } finally {
    await admin.end({ timeout: 5 });
  }
}

export async function createDatabaseWith(
  admin: postgres.Sql,
  name: string,
  template?: string,
): Promise<void> {
  // FILE_COPY copies the template's files as they are: for a small schema it is several
  // times quicker than the default WAL_LOG, which writes every page to the log.
  const from = template ? ` TEMPLATE ${checkedName(template)} STRATEGY FILE_COPY` : "";
  await admin.unsafe(`CREATE DATABASE ${checkedName(name)}${from}`);
}

/** Waits until the server answers a query, or fails with what it printed if it stopped. */
async function waitUntilReady(url: string, server: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  let exited = false;
  server.once("exit", () => {
    exited = true;
  });
  for (;;) {
    if (exited) throw new Error(`PostgreSQL stopped while starting:\n${output()}`);
    const probe = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: 2 });
    try {
      await probe`SELECT 1`;
      return;
    } catch (error) {
      if (Date.now() > deadline) {
        throw new Error(`PostgreSQL did not accept connections within 30 s (${String(error)}):\n${output()}`);
      }
    } finally {
      await probe.end({ timeout: 1 });
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The postmaster's pid, from the file it keeps in its data folder (as root it runs under runuser). */
function postmasterPid(dataDirectory: string): number | undefined {
  try {
    const pid = Number(readFileSync(join(dataDirectory, "postmaster.pid"), "utf8").split("\n")[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * `durable`: fsync and synchronous commits on, as a production server runs (benchmarks);
 * off by default, since a test cluster is thrown away with the run.
 */
export type ClusterOptions = { durable?: boolean; sharedBuffers?: string };

export async function startPostgresCluster(options: ClusterOptions = {}): Promise<PostgresCluster> {
  const bin = findPostgresBin(["initdb", "postgres"], installHint);
  const directory = mkdtempSync(join(tmpdir(), "kannt-postgres-"));
  const dataDirectory = join(directory, "data");
  if (isRoot()) {
    const { uid, gid } = accountOf("postgres");
    chownSync(directory, uid, gid);
  }
  let server: ChildProcess | undefined;
  let postmaster: number | undefined;

  // Should the run end without stop() (an error, Ctrl-C), the server and its files go with it.
  const killNow = () => {
    for (const pid of [postmaster ?? postmasterPid(dataDirectory), server?.pid]) {
      if (pid !== undefined && isAlive(pid)) process.kill(pid, "SIGKILL");
    }
    rmSync(directory, { recursive: true, force: true });
  };
  process.once("exit", killNow);

  try {
    // --no-locale: text sorts by code point and lower() folds only ASCII letters, as in SQLite.
    const [initdb, initdbArgs] = asPostgres(join(bin, "initdb"), [
      "-D",
      dataDirectory,
      "-A",
      "trust",
      "-U",
      "postgres",
      "-E",
      "UTF8",
      "--no-locale",
      "--no-sync",
    ]);
    await run(initdb, initdbArgs).catch((error: { stderr?: string; message: string }) => {
      throw new Error(`initdb failed: ${error.stderr || error.message}`);
    });

    // The free port is free when asked, not necessarily when the server binds it: on a
    // clash, another port.
    let port = 0;
    for (let attempt = 1; ; attempt += 1) {
      port = await freePort();
      let output = "";
      server = spawn(
        ...asPostgres(join(bin, "postgres"), serverArguments(dataDirectory, directory, port, options)),
        {
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      const keep = (chunk: Buffer) => {
        output = (output + chunk.toString()).slice(-8000);
      };
      server.stdout?.on("data", keep);
      server.stderr?.on("data", keep);
      try {
        await waitUntilReady(urlOn(port), server, () => output);
        break;
      } catch (error) {
        if (attempt >= 3 || !/Address already in use/.test(output)) throw error;
        await stopServer(postmasterPid(dataDirectory), server);
      }
    }
    postmaster = postmasterPid(dataDirectory) ?? server.pid;
    const url = (database = "postgres") => urlOn(port, database);

    const admin = postgres(url(), { max: 1, onnotice: () => {}, idle_timeout: 5 });
    let stopped = false;
    return {
      url,
      createDatabase: (name, template) => createDatabaseWith(admin, name, template),
      async stop() {
        if (stopped) return;
        stopped = true;
        await admin.end({ timeout: 1 });
        await stopServer(postmaster, server);
        process.removeListener("exit", killNow);
        rmSync(directory, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await stopServer(postmasterPid(dataDirectory), server);
    process.removeListener("exit", killNow);
    rmSync(directory, { recursive: true, force: true });
    throw error;
  }
}

const urlOn = (port: number, database = "postgres") => `postgres://postgres@127.0.0.1:${port}/${database}`;

function serverArguments(
  dataDirectory: string,
  socketDirectory: string,
  port: number,
  options: ClusterOptions,
): string[] {
  const durability = options.durable
    ? ["fsync=on", "synchronous_commit=on", "full_page_writes=on"]
    : // Nothing here must survive a crash: the cluster is thrown away with the run.
      ["fsync=off", "synchronous_commit=off", "full_page_writes=off"];
  return [
    "-D",
    dataDirectory,
    "-k",
    socketDirectory,
    "-p",
    String(port),
    "-c",
    "listen_addresses=127.0.0.1",
    ...durability.flatMap((setting) => ["-c", setting]),
    // Every test opens its own database with its own pool of connections.
    "-c",
    "max_connections=300",
    "-c",
    `shared_buffers=${options.sharedBuffers ?? "128MB"}`,
  ];
}

/** SIGINT (PostgreSQL's fast shutdown: open connections are ended), SIGKILL after 5 s. */
async function stopServer(postmaster: number | undefined, server: ChildProcess | undefined): Promise<void> {
  const pids = [postmaster, server?.pid].filter((pid): pid is number => pid !== undefined);
  for (const pid of pids) if (isAlive(pid)) process.kill(pid, "SIGINT");
  const deadline = Date.now() + 5_000;
  while (pids.some(isAlive) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  for (const pid of pids) if (isAlive(pid)) process.kill(pid, "SIGKILL");
}
