import type { Database } from "../database";
import { statement } from "../database";
import { isAmong } from "../dialect";

/** A published entry (migration 0028): NULL settings are the inbound's own. */
export type EntryRow = {
  id: number;
  node_id: number;
  inbound_tag: string;
  position: number;
  enabled: number;
  address: string | null;
  port: number | null;
  sni: string | null;
  fingerprint: string | null;
  alpn: string | null;
  path: string | null;
  host_header: string | null;
  service_name: string | null;
  remark: string;
  tags: string;
  tariffs: string;
  created_at: number;
  updated_at: number;
};

/** An entry with what its node reported: the subscription's and the probes' view. */
export type PublishedEntryRow = EntryRow & {
  node_name: string;
  node_host: string | null;
  inbounds: string;
  last_seen_at: number | null;
  core_state: "up" | "down" | null;
  /** When the node's oldest unapplied allow-list change was made (wall clock); null: none. */
  pending_since: number | null;
};

/** The settings an operator gives an entry; undefined leaves one as it is, null gives it back to the inbound. */
export type EntrySettings = {
  address?: string | null;
  port?: number | null;
  sni?: string | null;
  fingerprint?: string | null;
  alpn?: string | null;
  path?: string | null;
  host_header?: string | null;
  service_name?: string | null;
  remark?: string;
  tags?: string;
  tariffs?: string;
  enabled?: number;
};

export const entrySettingColumns = [
  "address",
  "port",
  "sni",
  "fingerprint",
  "alpn",
  "path",
  "host_header",
  "service_name",
  "remark",
  "tags",
  "tariffs",
  "enabled",
] as const satisfies readonly (keyof EntrySettings)[];

const entryColumns = `e.id, e.node_id, e.inbound_tag, e.position, e.enabled, e.address, e.port, e.sni,
  e.fingerprint, e.alpn, e.path, e.host_header, e.service_name, e.remark, e.tags, e.tariffs, e.created_at, e.updated_at`;

const pendingSince = `(SELECT c.changed_at FROM access_changes c WHERE c.version > n.applied_version
  ORDER BY c.version LIMIT 1)`;

export const nodeEntries = {
  /** Every entry in the operator's order. */
  list: (db: Database) =>
    statement<EntryRow & { node_name: string }, []>(
      db,
      `SELECT ${entryColumns}, n.name AS node_name FROM node_entries e JOIN vpn_nodes n ON n.id = e.node_id
       ORDER BY e.position, e.id`,
    ).all(),

  byId: (db: Database, id: number) =>
    statement<EntryRow & { node_name: string }, [number]>(
      db,
      `SELECT ${entryColumns}, n.name AS node_name FROM node_entries e JOIN vpn_nodes n ON n.id = e.node_id
       WHERE e.id = ?`,
    ).get(id),

  /**
   * Enabled entries of enabled nodes that reported, in the operator's order, with what
   * their nodes said of themselves: the health rules decide the rest.
   */
  published: (db: Database) =>
    statement<PublishedEntryRow, []>(
      db,
      `SELECT ${entryColumns}, n.name AS node_name, n.host AS node_host, n.inbounds, n.last_seen_at,
         n.core_state, ${pendingSince} AS pending_since
       FROM node_entries e JOIN vpn_nodes n ON n.id = e.node_id
       WHERE e.enabled = 1 AND n.disabled_at IS NULL AND n.last_seen_at IS NOT NULL
       ORDER BY e.position, e.id`,
    ).all(),

  /** Every node as an entry's state needs it, disabled ones included. */
  nodeStates: (db: Database) =>
    statement<
      Pick<PublishedEntryRow, "node_host" | "inbounds" | "last_seen_at" | "core_state" | "pending_since"> & {
        id: number;
        disabled_at: number | null;
      },
      []
    >(
      db,
      `SELECT n.id, n.host AS node_host, n.inbounds, n.last_seen_at, n.core_state, n.disabled_at,
         ${pendingSince} AS pending_since FROM vpn_nodes n`,
    ).all(),

  /** The inbound tags of a node that have an entry, switched off or not. */
  inboundTagsOf: (db: Database, nodeId: number) =>
    statement<{ inbound_tag: string }, [number]>(
      db,
      "SELECT DISTINCT inbound_tag FROM node_entries WHERE node_id = ?",
    ).all(nodeId),

  /** The position after every entry's. */
  nextPosition: async (db: Database) =>
    Number(
      (
        await statement<{ next: number | null }, []>(
          db,
          "SELECT MAX(position) + 1 AS next FROM node_entries",
        ).get()
      )?.next ?? 1,
    ),

  insert: (db: Database, nodeId: number, inboundTag: string, position: number, now: number) =>
    statement<{ id: number }, [number, string, number, number, number]>(
      db,
      `INSERT INTO node_entries (node_id, inbound_tag, position, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
       RETURNING id`,
    ).get(nodeId, inboundTag, position, now, now),

  /** Sets the named columns of the entries `ids` (a JSON array) to the same values. */
  update: (db: Database, ids: readonly number[], settings: EntrySettings, now: number) => {
    const columns = entrySettingColumns.filter((column) => settings[column] !== undefined);
    const assignments = [...columns.map((column) => `${column} = ?`), "updated_at = ?"].join(", ");
    const values = columns.map((column) => settings[column] ?? null);
    return db.run(`UPDATE node_entries SET ${assignments} WHERE ${isAmong(db, "id")}`, [
      ...values,
      now,
      JSON.stringify(ids),
    ]);
  },

  setPosition: (db: Database, id: number, position: number) =>
    statement<never, [number, number]>(db, "UPDATE node_entries SET position = ? WHERE id = ?").run(
      position,
      id,
    ),

  /** The ids among `ids` (a JSON array) that exist. */
  existing: (db: Database, ids: readonly number[]) =>
    db.all<{ id: number }>(`SELECT id FROM node_entries WHERE ${isAmong(db, "id")}`, [JSON.stringify(ids)]),
};

/** Connection events per node (connection_logs.server_name is the node's name) since a time. */
export const connectionRates = {
  since: (db: Database, since: number) =>
    statement<{ server_name: string; total: number; succeeded: number }, [number]>(
      db,
      `SELECT server_name, COUNT(*) AS total, SUM(success) AS succeeded FROM connection_logs
       WHERE connected_at >= ? AND server_name IS NOT NULL GROUP BY server_name`,
    ).all(since),
};
