import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { yooKassaLedgerFile } from "../../../db/queries/yookassa-ledger-schema";
import { restrictDatabaseFiles } from "../../platform/data-folder";

/**
 * The YooKassa sandbox's own book, in its own SQLite file (data/sandbox-yookassa.db), so
 * what it took survives a crash of our server and can be checked against our records.
 */
export function openYooKassaLedger(path: string): Database {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const ledger = new Database(path, { create: true, strict: true });
  yooKassaLedgerFile.holdAlone(ledger);
  restrictDatabaseFiles(path);
  yooKassaLedgerFile.createSchema(ledger);
  return ledger;
}
