import type { AllowEntry } from "../../../../../agent/contract/node-api";
import type { Database } from "../../../../../db/database";
import { allowList, type CredentialRow, type CredentialTerm } from "../../../../../db/queries/allowlist";
import { probes } from "../../../../../db/queries/probes";
import { accessEndsAt } from "./access-rule";

/**
 * When a credential leaves the nodes by their own clock: when its owner's access ends by
 * the cabinet's rule (accessEndsAt), or earlier for a device in an extra slot whose own paid
 * time ends first (DESIGN §13: slots never ride along unpaid); the nodes drop it then, even
 * with the product unreachable. A pending device is like any other here: while the slot
 * rule gives it a slot its credential stays with its owner's whole term (only its own
 * first fetch can learn the credential, and that takes the slot for good).
 */
export function credentialEndsAt(term: CredentialTerm, now: number): number | null {
  const endsAt = accessEndsAt(term, now);
  if (endsAt === null || Number(term.slot) <= 1 || term.slots_paid_until === null) return endsAt;
  return Math.min(endsAt, Number(term.slots_paid_until));
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

/**
 * How long a probe's credential is on a node by the node's own clock: the agent asks for
 * the whole list every 15 minutes, which gives it a day again; a probe disabled leaves at
 * once (a change that touches every list).
 */
export const probeCredentialMs = 24 * 60 * 60_000;

/**
 * Every credential allowed on the nodes now (DESIGN §8), with the time each has left: the
 * customers' devices', and each enabled probe's (agent/contract/probe-api.ts).
 */
export async function fullAllowList(database: Database, now: number): Promise<AllowEntry[]> {
  const probeEntries = (await probes.enabledCredentials(database)).map((probe) => ({
    tag: probe.node_tag,
    id: probe.credential,
    remainingMs: probeCredentialMs,
  }));
  return [...entriesOf(await allowList.credentials(database), now), ...probeEntries];
}

/**
 * How many credentials the nodes should hold now (the panel's "expected", a metric): the
 * same rows counted per subscription term, so a scrape reads a few hundred rows, not a
 * list of every credential.
 */
export async function allowListSize(database: Database, now: number): Promise<number> {
  let size = (await probes.enabledCredentials(database)).length;
  for (const term of await allowList.termCounts(database)) {
    const endsAt = credentialEndsAt(term, now);
    if (endsAt !== null && endsAt > now) size += Number(term.count);
  }
  return size;
}
