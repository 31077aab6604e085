import type { Database } from "../../../db/database";
import { allowList, type CredentialRow } from "../../../db/queries/allowlist";
import { accessEndsAt } from "./access-rule";
import type { AllowEntry } from "./node-wire";

/**
 * When a credential leaves the nodes by their own clock: when its owner's access ends, or
 * before that when it is a pending device's, whose reservation ends (DESIGN §8). Null: now.
 */
export function credentialEndsAt(
  row: Pick<CredentialRow, "status" | "end_date" | "next_charge_at" | "pending_until">,
  now: number,
): number | null {
  const accessEnd = accessEndsAt(row, now);
  if (accessEnd === null || row.pending_until === null) return accessEnd;
  return Math.min(accessEnd, Number(row.pending_until));
}

/** The entry a credential row gives now, or none when its owner has no access left. */
export function entryOf(row: CredentialRow, now: number): AllowEntry | undefined {
  const endsAt = credentialEndsAt(row, now);
  if (endsAt === null || endsAt <= now) return undefined;
  return { tag: row.node_tag, id: row.credential, remainingMs: endsAt - now };
}

function entriesOf(rows: CredentialRow[], now: number): AllowEntry[] {
  const entries: AllowEntry[] = [];
  for (const row of rows) {
    const entry = entryOf(row, now);
    if (entry) entries.push(entry);
  }
  return entries;
}

/** Every credential allowed on the nodes now (DESIGN §8), with the time each has left. */
export async function fullAllowList(database: Database, now: number): Promise<AllowEntry[]> {
  return entriesOf(await allowList.credentials(database), now);
}

/**
 * How many credentials the nodes should hold now (the panel's "expected", a metric): the
 * same rows counted per subscription term, so a scrape reads a few hundred rows, not a
 * list of every credential.
 */
export async function allowListSize(database: Database, now: number): Promise<number> {
  let size = 0;
  for (const term of await allowList.termCounts(database)) {
    const endsAt = credentialEndsAt(term, now);
    if (endsAt !== null && endsAt > now) size += Number(term.count);
  }
  return size;
}
