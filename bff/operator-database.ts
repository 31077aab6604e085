import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { Database } from "../db/database";
import { PostgresDatabase } from "../db/postgres";
import { schemaMigrations } from "../db/queries/schema-migrations";
import type { Config } from "./platform/config";
import { prepareDataFolder } from "./platform/data-folder";
import { migrate, openDatabase } from "./platform/database";

/**
 * Which data the operator CLI works on, said before it does anything: run from another
 * folder or without the server's DATABASE_PATH, it once made a new database of its own
 * and printed a node key the live product had never heard of.
 */

/** A PostgreSQL URL as it may be shown: its password left out. */
export function shownDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = "";
    return parsed.toString();
  } catch {
    // Loaded configuration only holds postgres:// URLs; anything odd is not echoed.
    return "postgres://…";
  }
}

/** The database the configuration names: the SQLite file's absolute path, or the URL without its password. */
export function shownDatabase(config: Pick<Config, "databaseUrl" | "databasePath">): string {
  if (config.databaseUrl !== undefined) return `${shownDatabaseUrl(config.databaseUrl)} (PostgreSQL)`;
  if (config.databasePath === ":memory:") return ":memory: (SQLite in memory)";
  return `${resolve(config.databasePath)} (SQLite)`;
}

/** The CLI would have had to make the database: it refuses, saying how to name the product's. */
export class NoProductDatabaseError extends Error {}

/** How to run the same command on the product's data: the command and its first word, never a password. */
function pointAtProductData(args: readonly string[]): string {
  const command = `npm run operator -- ${args.slice(0, 2).join(" ")}${args.length > 2 ? " …" : ""}`;
  return [
    "Point the CLI at the database the server uses, with the server's own setting, e.g.:",
    `  DATABASE_PATH=/opt/kannt/data/app.db ${command}`,
    `  DATABASE_URL=postgres://user:password@host:5432/kannt ${command}   (PostgreSQL)`,
    "A relative DATABASE_PATH is read from the folder the command runs in; the server's default is data/app.db in its own folder (/opt/kannt with the units in deploy/).",
  ].join("\n");
}

/**
 * Opens the product's database for a command that changes its data, never making one: a
 * SQLite file that is not there, a database only in memory, or a PostgreSQL database no
 * server has started on (no migrations recorded) is refused with a NoProductDatabaseError.
 */
export async function openProductDatabase(config: Config, args: readonly string[]): Promise<Database> {
  if (config.databaseUrl !== undefined) {
    const database = new PostgresDatabase(config.databaseUrl);
    try {
      if (!(await schemaMigrations.hasTable(database)))
        throw new NoProductDatabaseError(
          `${shownDatabaseUrl(config.databaseUrl)} holds no Kannt data: no server has started on it. This command changes the product's data, so it does not set up a new database.\n${pointAtProductData(args)}`,
        );
      await migrate(database);
    } catch (error) {
      await database.close();
      throw error;
    }
    return database;
  }
  if (config.databasePath === ":memory:")
    throw new NoProductDatabaseError(
      `DATABASE_PATH is :memory:, a database that lives only inside one process: what this command changed would be gone when it ends.\n${pointAtProductData(args)}`,
    );
  if (!existsSync(config.databasePath))
    throw new NoProductDatabaseError(
      `There is no database at ${resolve(config.databasePath)}. This command changes the product's data, so it does not create a new one: a key or an account made there would be refused by the running product.\n${pointAtProductData(args)}`,
    );
  // The folder and files private before the database is opened (the server's own start step).
  prepareDataFolder(config);
  return openDatabase(config);
}
