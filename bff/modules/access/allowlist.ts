import type { Database } from "../../../db/database";
import { statement } from "../../../db/database";
import type { SubscriptionStatus } from "../../../db/queries/subscriptions";
import { accessEndsAt } from "./access-rule";
import type { AllowEntry } from "./node-wire";

/** A device with a credential, with its owner's newest subscription (the one that decides). */
export type CredentialRow = {
  user_id: number;
  node_tag: string;
  credential: string;
  status: SubscriptionStatus;
  end_date: number | null;
  next_charge_at: number | null;
};

/**
 * A customer's devices in use, each numbered by age (oldest first): only the first
 * `1 + extra_devices` of them hold a slot of the current subscription, so a customer who
 * buys again with fewer slots than devices still in use gets no more credentials on the
 * nodes than slots (DESIGN §8). Numbered among the devices in use alone, as slots are
 * counted (device-slots.ts). It ends in its WHERE, so a caller may narrow it with
 * `AND user_id …`: whole customers only, or the numbering would change.
 */
export const devicesBySlot = `SELECT id, user_id, node_tag, credential,
    ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY created_at, id) AS slot
  FROM devices WHERE is_active = 1 AND detached_at IS NULL`;

/**
 * Devices in use with a credential, within their owner's slots, joined to the owner's
 * newest subscription, in one pass over the tables: 100,000 credentials are one query,
 * never a round trip per customer. Only statuses that can give access are read; the rule
 * itself (accessEndsAt) decides the rest.
 */
const credentialsInUse = `FROM (${devicesBySlot}) d
  JOIN (SELECT user_id, MAX(id) AS id FROM subscriptions GROUP BY user_id) newest ON newest.user_id = d.user_id
  JOIN subscriptions s ON s.id = newest.id
  WHERE d.credential IS NOT NULL AND d.node_tag IS NOT NULL AND d.slot <= 1 + s.extra_devices
    AND s.status IN ('ACTIVE', 'CANCELED')`;

/** The entry a credential row gives now, or none when its owner has no access left. */
export function entryOf(row: CredentialRow, now: number): AllowEntry | undefined {
  const endsAt = accessEndsAt(row, now);
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
  const rows = await statement<CredentialRow, []>(
    database,
    `SELECT d.user_id, d.node_tag, d.credential, s.status, s.end_date, s.next_charge_at ${credentialsInUse}`,
  ).all();
  return entriesOf(rows, now);
}

type TermCount = Pick<CredentialRow, "status" | "end_date" | "next_charge_at"> & { count: number };

/**
 * How many credentials the nodes should hold now (the panel's "expected", a metric): the
 * same rows counted per subscription term, so a scrape reads a few hundred rows, not a
 * list of every credential.
 */
export async function allowListSize(database: Database, now: number): Promise<number> {
  const terms = await statement<TermCount, []>(
    database,
    `SELECT s.status, s.end_date, s.next_charge_at, COUNT(*) AS count ${credentialsInUse}
     GROUP BY s.status, s.end_date, s.next_charge_at`,
  ).all();
  let size = 0;
  for (const term of terms) {
    const endsAt = accessEndsAt(term, now);
    if (endsAt !== null && endsAt > now) size += Number(term.count);
  }
  return size;
}
