import { existsSync, mkdirSync, unlinkSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { refuseExistingTarget, writeNewBackup } from "../bff/platform/backup-file";
import { type Config, loadConfig } from "../bff/platform/config";
import {
  askControlSocket,
  canonicalDatabasePath,
  controlSocketPath,
  probeControlSocket,
} from "../bff/platform/control-socket";
import { prepareDataFolder } from "../bff/platform/data-folder";
import { openSqlite } from "../bff/platform/database";
import { assertPrivateFolder } from "../bff/platform/private-path";
import { backupSqliteInto } from "../bff/platform/sqlite-backup";
import { runPostgresClient } from "./postgres-bin";

/**
 * `npm run backup -- [file]` (DESIGN §15): a consistent copy of the configured database,
 * taken while servers run, written to `file` or to `backups/kannt-<UTC time>.sqlite|.pgdump`
 * beside the data folder. Prints the copy's absolute path. The database is the one the
 * server would open with the same environment (DATABASE_URL, else DATABASE_PATH).
 *
 * SQLite: the running server holds the file exclusively, so it is asked for the copy over
 * its control socket; with no server running the file is opened here. Either way the copy
 * is VACUUM INTO, one read transaction. PostgreSQL: pg_dump, one snapshot by itself.
 */

/** 20250131T235959Z: sorts as it reads, and needs no quoting in any shell. */
export function utcStamp(now = new Date()): string {
  return now
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
}

/** Where the copy goes: the file named, or a new one in backups/ beside the data folder. */
function targetOf(argument: string | undefined, config: Config): string {
  const extension = config.databaseUrl ? "pgdump" : "sqlite";
  const target = argument
    ? resolve(argument)
    : join(resolve(config.dataDirectory, ".."), "backups", `kannt-${utcStamp()}.${extension}`);
  refuseExistingTarget(target);
  // A backup holds what the data folder holds (card tokens, sessions): its folder is
  // owner-only like that one, and one another user owns or may write to is refused
  // before anything is asked of the server.
  if (!existsSync(dirname(target))) mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
  assertPrivateFolder(dirname(target), "backup folder");
  return target;
}

async function backupSqlite(config: Config, target: string): Promise<string> {
  if (config.databasePath === ":memory:") {
    throw new Error(
      "DATABASE_PATH is :memory:, which lives only inside its server: there is nothing to back up.",
    );
  }
  const socket = controlSocketPath(config.dataDirectory);
  const probe = await probeControlSocket(socket);
  if (probe.state === "answering" && probe.database === canonicalDatabasePath(config.databasePath)) {
    const answer = await askControlSocket(socket, "POST /backup", { path: target });
    return String(answer.path);
  }
  // Left by a server that was killed: nobody listens on it any more.
  if (probe.state === "stale") unlinkSync(socket);
  if (!existsSync(config.databasePath)) {
    throw new Error(`There is no database at ${resolve(config.databasePath)}: nothing to back up.`);
  }
  // openSqlite, not openDatabase: the copy is of the database as it is, before any migration
  // a newer version would apply (a backup taken before an upgrade must be the old one).
  let database: ReturnType<typeof openSqlite>;
  try {
    database = openSqlite(config.databasePath);
  } catch (error) {
    if (String(error).includes("in use")) {
      throw new Error(
        `${resolve(config.databasePath)} is held by a running server that did not answer on ${socket}; stop that server and run the backup again.`,
      );
    }
    throw error;
  }
  try {
    return await backupSqliteInto(database, target);
  } finally {
    await database.close();
  }
}

async function backupPostgres(databaseUrl: string, target: string): Promise<string> {
  // pg_dump opens --file as it finds it (a link followed, a file truncated): it writes
  // in a private folder, and the finished dump is linked in as the target.
  await writeNewBackup(target, async (temporary) => {
    // The custom format is compressed and is what pg_restore reads, a table at a time.
    await runPostgresClient("pg_dump", (url) => ["--format=custom", `--file=${temporary}`, url], databaseUrl);
  });
  return target;
}

export async function backup(argument: string | undefined, environment = process.env): Promise<string> {
  const config = prepareDataFolder(loadConfig(environment));
  const target = targetOf(argument, config);
  return config.databaseUrl ? backupPostgres(config.databaseUrl, target) : backupSqlite(config, target);
}

if (import.meta.main) {
  const [argument, ...rest] = process.argv.slice(2);
  if (rest.length > 0 || argument?.startsWith("-")) {
    console.error("Usage: npm run backup -- [file]");
    process.exit(2);
  }
  try {
    console.log(await backup(argument));
  } catch (error) {
    console.error(`Backup failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
