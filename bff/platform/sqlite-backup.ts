import { isAbsolute } from "node:path";
import type { Database } from "../../db/database";
import { sqliteFile } from "../../db/queries/sqlite-file";
import { writeNewBackup } from "./backup-file";
import { ControlError, type ControlHandler } from "./control-socket";

/**
 * Writes a consistent copy of the open SQLite database to `target` (an absolute path to a
 * file that does not exist yet, in a private folder that does) and returns it.
 *
 * VACUUM INTO reads the whole database in one read transaction on the connection that holds
 * the file, so the copy is the database at one instant, committed rows only, compacted.
 * `exec` waits until no transaction is open on that connection (VACUUM may not run inside
 * one). The copy runs synchronously: the server answers nothing else while it is written,
 * roughly half a second for a 200 MB database on a machine with the file in its page cache.
 */
export async function backupSqliteInto(database: Database, target: string): Promise<string> {
  if (database.engine !== "sqlite") throw new ControlError(400, "Only a SQLite database is copied this way.");
  if (!isAbsolute(target) || target.includes("\0")) {
    throw new ControlError(400, `The backup path must be an absolute file path, got "${target}".`);
  }
  await writeNewBackup(target, async (temporary) => {
    await sqliteFile.copyInto(database, temporary);
  });
  return target;
}

/** `POST /backup` on the control socket: `{ path }` in, `{ path }` out once the copy is complete. */
export const backupRequest: ControlHandler = async (body, database) => {
  const path = (body as { path?: unknown } | null)?.path;
  if (typeof path !== "string")
    throw new ControlError(400, 'The body must be {"path": "<absolute file path>"}.');
  return { path: await backupSqliteInto(database, path) };
};
