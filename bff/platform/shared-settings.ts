import type { Database } from "../../db/database";
import { settings } from "../../db/queries/settings";

/**
 * A value made once per database, by whichever instance asks first, and read by every
 * other (DESIGN §15): with several instances on one PostgreSQL, a secret generated into
 * one machine's data folder would make the others refuse what it signed. The first
 * writer wins; a racing instance reads the winner's value.
 */
export async function sharedSetting(
  database: Database,
  key: string,
  generate: () => string | Promise<string>,
): Promise<string> {
  const read = () => settings.value(database, key);
  const existing = await read();
  if (existing) return existing.value;
  await settings.insertIfAbsent(database, key, await generate());
  const stored = await read();
  if (!stored) throw new Error(`setting ${key} was not stored`);
  return stored.value;
}
