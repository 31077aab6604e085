import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { sandboxLedgerFile } from "../../../db/queries/sandbox-ledger-schema";
import { restrictDatabaseFiles } from "../../platform/data-folder";

/**
 * The sandbox bank's own book, in its own SQLite file, so what it charged survives a
 * crash of our server and can be checked against our records.
 */
export function openLedger(path: string): Database {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const ledger = new Database(path, { create: true, strict: true });
  sandboxLedgerFile.holdAlone(ledger);
  restrictDatabaseFiles(path);
  sandboxLedgerFile.createSchema(ledger);
  return ledger;
}
