import { Database as BunDatabase } from "bun:sqlite";
import {
  chmodSync,
  closeSync,
  copyFileSync,
  existsSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  rmSync,
} from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type Config, loadConfig } from "../bff/platform/config";
import { canonicalDatabasePath, controlSocketPath, probeControlSocket } from "../bff/platform/control-socket";
import { prepareDataFolder } from "../bff/platform/data-folder";
import { openDatabase, openSqlite } from "../bff/platform/database";
import type { Database } from "../db/database";
import { PostgresDatabase } from "../db/postgres";
import { restoreTarget, sqliteBackupCopy } from "../db/queries/restore-checks";
import { schemaMigrations } from "../db/queries/schema-migrations";
import { runPostgresClient } from "./postgres-bin";

/**
 * `npm run restore -- <file>` (DESIGN §15): loads a backup made by `npm run backup` into the
 * configured database (DATABASE_URL, else DATABASE_PATH), replacing what is there, with the
 * servers stopped. Then opens it once as a server would, which applies the migrations of a
 * newer version, and prints what it holds.
 */

type Kind = "sqlite" | "pgdump" | "other";

/** What a file is, by its first bytes: SQLite's header, or pg_dump's custom format. */
function kindOf(file: string): Kind {
  const head = Buffer.alloc(16);
  const descriptor = openSync(file, "r");
  try {
    readSync(descriptor, head, 0, 16, 0);
  } finally {
    closeSync(descriptor);
  }
  if (head.toString("latin1") === "SQLite format 3\0") return "sqlite";
  if (head.subarray(0, 5).toString("latin1") === "PGDMP") return "pgdump";
  return "other";
}

const sqliteMigrations = fileURLToPath(new URL("../db/migrations/sqlite", import.meta.url));

/** The migrations recorded in a SQLite copy; refuses a file that is no backup of this product. */
function checkSqliteBackup(copy: string, file: string): string[] {
  const notOurs = `${file} is a SQLite database but not a backup of this server's (it has no schema_migrations table).`;
  const database = new BunDatabase(copy, { readwrite: true, create: false });
  try {
    const check = sqliteBackupCopy.quickCheck(database);
    if (check !== "ok") throw new Error(`${file} is damaged: ${check ?? "no answer"}.`);
    if (!sqliteBackupCopy.hasMigrationsTable(database)) throw new Error(notOurs);
    return sqliteBackupCopy.migrationNames(database);
  } finally {
    database.close();
  }
}

/** A SQLite file whose server runs cannot be replaced under it. */
async function refuseWhileServed(config: Config): Promise<void> {
  const socket = controlSocketPath(config.dataDirectory);
  const probe = await probeControlSocket(socket);
  const databasePath = resolve(config.databasePath);
  if (probe.state === "answering" && probe.database === canonicalDatabasePath(config.databasePath)) {
    throw new Error(`A server (process ${probe.pid}) is running on ${databasePath}; stop it first.`);
  }
  if (probe.state === "stale") rmSync(socket, { force: true });
  if (!existsSync(databasePath)) return;
  // A server that holds the file without a socket still holds it exclusively.
  let held: ReturnType<typeof openSqlite>;
  try {
    held = openSqlite(databasePath);
  } catch (error) {
    if (String(error).includes("in use"))
      throw new Error(`A server is running on ${databasePath}; stop it first.`);
    throw error;
  }
  await held.close();
}

async function restoreSqlite(config: Config, file: string): Promise<string[]> {
  if (config.databasePath === ":memory:") {
    throw new Error(
      "DATABASE_PATH is :memory:, which lives only inside its server: there is nothing to restore into.",
    );
  }
  await refuseWhileServed(config);
  const databasePath = resolve(config.databasePath);
  // The copy is checked where it will live, then renamed over the database in one step:
  // a failure on the way leaves the database as it was.
  const copy = `${databasePath}.restoring`;
  const removeCopy = () => {
    for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(`${copy}${suffix}`, { force: true });
  };
  removeCopy();
  try {
    copyFileSync(file, copy);
    chmodSync(copy, 0o600);
    const recorded = checkSqliteBackup(copy, file);
    const known = new Set(readdirSync(sqliteMigrations));
    const unknown = recorded.filter((name) => !known.has(name));
    if (unknown.length > 0) {
      throw new Error(
        `${file} was made by a newer version (migrations ${unknown.join(", ")} are unknown here); restore it with that version.`,
      );
    }
    // The old database's WAL would be read as the new one's: it goes first.
    for (const suffix of ["-wal", "-shm", "-journal"]) rmSync(`${databasePath}${suffix}`, { force: true });
    renameSync(copy, databasePath);
    return recorded;
  } finally {
    removeCopy();
  }
}

/**
 * PostgreSQL: how many connections of running servers (and operator CLIs) the database has,
 * which connect as the postgres.js client does, and the migrations it records.
 */
async function postgresState(databaseUrl: string): Promise<{ connections: number; migrations: string[] }> {
  const database = new PostgresDatabase(databaseUrl, { max: 1 });
  try {
    const connections = await restoreTarget.otherClientConnections(database);
    const migrations = (await schemaMigrations.hasTable(database))
      ? await schemaMigrations.names(database)
      : [];
    return { connections, migrations };
  } finally {
    await database.close();
  }
}

async function restorePostgres(databaseUrl: string, file: string): Promise<string[]> {
  // Restoring under running servers would swap their tables between two of their queries.
  const { connections } = await postgresState(databaseUrl);
  if (connections > 0) {
    throw new Error(
      `${connections} connection(s) of running servers or operator CLIs are open on the database; stop them first.`,
    );
  }
  // --clean --if-exists: the tables there are dropped and made again from the backup;
  // --single-transaction: all of it or, on any error, none; --no-owner: the objects belong
  // to DATABASE_URL's user, whoever owned them where the backup was made.
  await runPostgresClient(
    "pg_restore",
    (url) => ["--clean", "--if-exists", "--no-owner", "--single-transaction", `--dbname=${url}`, file],
    databaseUrl,
  );
  return (await postgresState(databaseUrl)).migrations;
}

async function counts(database: Database) {
  return {
    users: await restoreTarget.rowCount(database, "users"),
    payments: await restoreTarget.rowCount(database, "payments"),
  };
}

export async function restore(argument: string, environment = process.env): Promise<string> {
  const file = resolve(argument);
  if (!existsSync(file)) throw new Error(`${file} does not exist.`);
  const config = prepareDataFolder(loadConfig(environment));
  const kind = kindOf(file);
  const engine = config.databaseUrl ? "pgdump" : "sqlite";
  if (kind !== engine) {
    throw new Error(
      kind === "other"
        ? `${file} is not a backup made by npm run backup (neither a SQLite database nor a pg_dump archive).`
        : kind === "pgdump"
          ? `${file} is a PostgreSQL backup; set DATABASE_URL to the PostgreSQL database to restore it into.`
          : `${file} is a SQLite backup, but DATABASE_URL names a PostgreSQL database; unset it to restore into DATABASE_PATH.`,
    );
  }
  const before = config.databaseUrl
    ? await restorePostgres(config.databaseUrl, file)
    : await restoreSqlite(config, file);
  const database = await openDatabase(config);
  try {
    const { users, payments } = await counts(database);
    const now = await schemaMigrations.names(database);
    const applied = now.filter((name) => !before.includes(name)).sort();
    const into = config.databaseUrl
      ? "the PostgreSQL database of DATABASE_URL"
      : resolve(config.databasePath);
    return `Restored ${file} into ${into}: ${users} users, ${payments} payments${
      applied.length > 0 ? `; migrations applied since the backup: ${applied.join(", ")}` : ""
    }.`;
  } finally {
    await database.close();
  }
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  if (args.length !== 1 || args[0]?.startsWith("-")) {
    console.error("Usage: npm run restore -- <file>   (with the servers stopped)");
    process.exit(2);
  }
  try {
    console.log(await restore(args[0] as string));
  } catch (error) {
    console.error(`Restore failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
