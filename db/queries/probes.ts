import type { Database } from "../database";
import { statement } from "../database";
import { jsonRows } from "../dialect";

/** A probe agent (migration 0028); its key is kept hashed. Times are wall clock. */
export type ProbeRow = {
  id: number;
  name: string;
  credential: string;
  node_tag: string;
  disabled_at: number | null;
  last_seen_at: number | null;
  agent_instance: string | null;
  agent_seen_at: number | null;
  created_at: number;
};

/** What one probe last decided of one entry. */
export type EntryCheckRow = {
  entry_id: number;
  probe_id: number;
  up: number;
  since: number;
  streak: number;
  latency_ms: number | null;
  last_error: string | null;
  last_error_at: number | null;
  checked_at: number;
};

/** A check with its probe's name, for the panel and the metrics. */
export type NamedCheckRow = EntryCheckRow & { probe_name: string };

const probeColumns =
  "id, name, credential, node_tag, disabled_at, last_seen_at, agent_instance, agent_seen_at, created_at";

export const probes = {
  insert: (
    db: Database,
    probe: { name: string; keyHash: string; credential: string; nodeTag: string },
    now: number,
  ) =>
    statement<{ id: number }, [string, string, string, string, number]>(
      db,
      "INSERT INTO probes (name, key_hash, credential, node_tag, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id",
    ).get(probe.name, probe.keyHash, probe.credential, probe.nodeTag, now),

  list: (db: Database) =>
    statement<ProbeRow, []>(db, `SELECT ${probeColumns} FROM probes ORDER BY LOWER(name), id`).all(),

  byId: (db: Database, id: number) =>
    statement<ProbeRow, [number]>(db, `SELECT ${probeColumns} FROM probes WHERE id = ?`).get(id),

  byKeyHash: (db: Database, keyHash: string) =>
    statement<ProbeRow, [string]>(db, `SELECT ${probeColumns} FROM probes WHERE key_hash = ?`).get(keyHash),

  byNameAnyCase: (db: Database, name: string) =>
    statement<{ name: string }, [string]>(db, "SELECT name FROM probes WHERE LOWER(name) = LOWER(?)").get(
      name,
    ),

  replaceKeyHash: (db: Database, id: number, keyHash: string) =>
    statement<{ id: number }, [string, number]>(
      db,
      "UPDATE probes SET key_hash = ? WHERE id = ? RETURNING id",
    ).get(keyHash, id),

  setDisabled: (db: Database, id: number, disabledAt: number | null) =>
    statement<{ id: number }, [number | null, number]>(
      db,
      "UPDATE probes SET disabled_at = ? WHERE id = ? RETURNING id",
    ).get(disabledAt, id),

  /** `instance` called at `seenAt`; it holds the key from now on. */
  noteSeen: (db: Database, id: number, instance: string, seenAt: number) =>
    statement<never, [string, number, number, number]>(
      db,
      "UPDATE probes SET agent_instance = ?, agent_seen_at = ?, last_seen_at = ? WHERE id = ?",
    ).run(instance, seenAt, seenAt, id),

  /** Credentials every node holds for the enabled probes: none of them is a customer's. */
  enabledCredentials: (db: Database) =>
    statement<{ node_tag: string; credential: string }, []>(
      db,
      "SELECT node_tag, credential FROM probes WHERE disabled_at IS NULL ORDER BY id",
    ).all(),
};

export const entryChecks = {
  /** Every check by an enabled probe, with its probe's name. */
  all: (db: Database) =>
    statement<NamedCheckRow, []>(
      db,
      `SELECT c.entry_id, c.probe_id, c.up, c.since, c.streak, c.latency_ms, c.last_error, c.last_error_at,
         c.checked_at, p.name AS probe_name
       FROM entry_checks c JOIN probes p ON p.id = c.probe_id WHERE p.disabled_at IS NULL
       ORDER BY c.entry_id, LOWER(p.name)`,
    ).all(),

  ofProbe: (db: Database, probeId: number) =>
    statement<EntryCheckRow, [number]>(
      db,
      `SELECT entry_id, probe_id, up, since, streak, latency_ms, last_error, last_error_at, checked_at
       FROM entry_checks WHERE probe_id = ?`,
    ).all(probeId),

  /** Writes a round's checks in one statement, whatever their number (WHERE true: SQLite's upsert after a SELECT needs one). */
  store: (db: Database, rows: readonly EntryCheckRow[]) =>
    db.run(
      `INSERT INTO entry_checks (entry_id, probe_id, up, since, streak, latency_ms, last_error, last_error_at, checked_at)
       SELECT j.entry_id, j.probe_id, j.up, j.since, j.streak, j.latency_ms, j.last_error, j.last_error_at, j.checked_at
       FROM ${jsonRows(db, "j", [
         ["entry_id", "BIGINT"],
         ["probe_id", "BIGINT"],
         ["up", "BIGINT"],
         ["since", "BIGINT"],
         ["streak", "BIGINT"],
         ["latency_ms", "BIGINT"],
         ["last_error", "TEXT"],
         ["last_error_at", "BIGINT"],
         ["checked_at", "BIGINT"],
       ])}
       WHERE true
       ON CONFLICT (entry_id, probe_id) DO UPDATE SET up = excluded.up, since = excluded.since,
         streak = excluded.streak, latency_ms = excluded.latency_ms, last_error = excluded.last_error,
         last_error_at = excluded.last_error_at, checked_at = excluded.checked_at`,
      [JSON.stringify(rows)],
    ),
};
