import type { Database } from "../database";
import { statement } from "../database";
import { cappedSum } from "../dialect";

/** A node as the panel lists it, with its sync lag's start and today's traffic. */
export type NodeRow = {
  id: number;
  name: string;
  host: string | null;
  core: string | null;
  core_version: string | null;
  /** 'up' or 'down' as the agent last reported; null: not said (read as up). */
  core_state: "up" | "down" | null;
  inbounds: string;
  last_seen_at: number | null;
  applied_version: number;
  credentials_count: number;
  disabled_at: number | null;
  created_at: number;
  /** When an agent last called with the key the last rotation replaced (wall clock); null: none since. */
  previous_key_used_at: number | null;
  /** The last agent instance refused because another held the key: when (wall clock) and from where. */
  refused_agent_at: number | null;
  refused_agent_address: string | null;
  /** Wall-clock time of the first change after the node's applied version; null: none. */
  pending_since: number | null;
  upload_today: number;
  download_today: number;
};

/** A node as its key finds it: what the node API checks before it serves a call. */
export type KeyedNode = {
  id: number;
  name: string;
  disabled_at: number | null;
  /** The agent instance last seen with the key ('' for callers without one); null: none yet. */
  agent_instance: string | null;
  agent_seen_at: number | null;
  refused_agent_at: number | null;
};

/** An enabled node as the access metrics read it. */
export type EnabledNode = {
  name: string;
  last_seen_at: number | null;
  pending_since: number | null;
  core_state: "up" | "down" | null;
  credentials_count: number;
};

/** What a node's agent reports of itself; `inbounds` as the JSON text the column keeps. */
export type NodeState = {
  host: string;
  core: string;
  coreVersion: string;
  inbounds: string;
  appliedVersion: number;
  credentials: number;
  coreState: "up" | "down" | null;
};

/**
 * The first change after the node's version, by the log's primary key: one index seek
 * per node however far behind it is (a MIN over the range would read all of it).
 */
const pendingSince = `(SELECT c.changed_at FROM access_changes c WHERE c.version > n.applied_version
  ORDER BY c.version LIMIT 1)`;

const nodesSelect = (
  db: Database,
) => `SELECT n.id, n.name, n.host, n.core, n.core_version, n.core_state, n.inbounds,
    n.last_seen_at, n.applied_version, n.credentials_count, n.disabled_at, n.created_at,
    n.previous_key_used_at, n.refused_agent_at, n.refused_agent_address, ${pendingSince} AS pending_since,
    COALESCE(t.upload, 0) AS upload_today, COALESCE(t.download, 0) AS download_today
  FROM vpn_nodes n
  LEFT JOIN (SELECT node_id, ${cappedSum(db, "upload")} AS upload, ${cappedSum(db, "download")} AS download
    FROM device_traffic WHERE day = ? GROUP BY node_id) t ON t.node_id = n.id`;

/** VPN nodes (keys kept as hashes, what their agents report); their batches of events are in node-events.ts. */
export const vpnNodes = {
  insert: (db: Database, name: string, keyHash: string, now: number) =>
    statement(db, "INSERT INTO vpn_nodes (name, key_hash, created_at) VALUES (?, ?, ?)").run(
      name,
      keyHash,
      now,
    ),

  /**
   * A new key; the one it replaces is kept as the previous key, so calls with it can be told
   * so (and when they last came). Undefined: no such node.
   */
  replaceKeyHash: (db: Database, id: number, keyHash: string, rotatedAt: number) =>
    statement<{ id: number }, [string, number, number]>(
      db,
      `UPDATE vpn_nodes SET previous_key_hash = key_hash, key_hash = ?, key_rotated_at = ?,
         previous_key_used_at = NULL WHERE id = ? RETURNING id`,
    ).get(keyHash, rotatedAt, id),

  /** Disabled since `disabledAt`, or enabled (null). Undefined: no such node. */
  setDisabled: (db: Database, id: number, disabledAt: number | null) =>
    statement<{ id: number }, [number | null, number]>(
      db,
      "UPDATE vpn_nodes SET disabled_at = ? WHERE id = ? RETURNING id",
    ).get(disabledAt, id),

  byKeyHash: (db: Database, keyHash: string) =>
    statement<KeyedNode, [string]>(
      db,
      `SELECT id, name, disabled_at, agent_instance, agent_seen_at, refused_agent_at
       FROM vpn_nodes WHERE key_hash = ?`,
    ).get(keyHash),

  nameAndState: (db: Database, id: number) =>
    statement<{ name: string; disabled_at: number | null }, [number]>(
      db,
      "SELECT name, disabled_at FROM vpn_nodes WHERE id = ?",
    ).get(id),

  nameOf: (db: Database, id: number) =>
    statement<{ name: string }, [number]>(db, "SELECT name FROM vpn_nodes WHERE id = ?").get(id),

  /** The node whose name is `name` in any letter case. */
  byNameAnyCase: (db: Database, name: string) =>
    statement<{ name: string }, [string]>(db, "SELECT name FROM vpn_nodes WHERE LOWER(name) = LOWER(?)").get(
      name,
    ),

  idByName: (db: Database, name: string) =>
    statement<{ id: number }, [string]>(db, "SELECT id FROM vpn_nodes WHERE name = ?").get(name),

  /** Every node, by name, with the traffic of UTC day `day`. */
  list: (db: Database, day: number) =>
    statement<NodeRow, [number]>(db, `${nodesSelect(db)} ORDER BY LOWER(n.name), n.id`).all(day),

  /** One node, with the traffic of UTC day `day`. */
  withTraffic: (db: Database, id: number, day: number) =>
    statement<NodeRow, [number, number]>(db, `${nodesSelect(db)} WHERE n.id = ?`).get(day, id),

  enabled: (db: Database) =>
    statement<EnabledNode, []>(
      db,
      `SELECT n.name, n.last_seen_at, n.core_state, n.credentials_count, ${pendingSince} AS pending_since
       FROM vpn_nodes n WHERE n.disabled_at IS NULL`,
    ).all(),

  storeReport: (db: Database, id: number, state: NodeState, lastSeenAt: number) =>
    statement<never, [string, string, string, string, number, number, string | null, number, number]>(
      db,
      `UPDATE vpn_nodes SET host = ?, core = ?, core_version = ?, inbounds = ?, applied_version = ?,
       credentials_count = ?, core_state = ?, last_seen_at = ? WHERE id = ?`,
    ).run(
      state.host,
      state.core,
      state.coreVersion,
      state.inbounds,
      state.appliedVersion,
      state.credentials,
      state.coreState,
      lastSeenAt,
      id,
    ),

  /** Notes a batch of events as stored; no change: this node's batch of that id was stored before. */
  rememberEventBatch: (db: Database, nodeId: number, batchId: string, receivedAt: number) =>
    statement<never, [number, string, number]>(
      db,
      `INSERT INTO node_event_batches (node_id, batch_id, received_at) VALUES (?, ?, ?)
       ON CONFLICT (node_id, batch_id) DO NOTHING`,
    ).run(nodeId, batchId, receivedAt),

  /** Forgets up to `limit` batch ids received before `before` (wall clock). */
  forgetEventBatchesBefore: (db: Database, before: number, limit: number) =>
    statement<never, [number, number]>(
      db,
      `DELETE FROM node_event_batches WHERE (node_id, batch_id) IN (
         SELECT node_id, batch_id FROM node_event_batches WHERE received_at < ? ORDER BY received_at LIMIT ?)`,
    ).run(before, limit),

  /** Up to `limit` rows of per-device traffic of UTC days before `day`, oldest first. */
  deleteTrafficBefore: (db: Database, day: number, limit: number) =>
    statement<never, [number, number]>(
      db,
      `DELETE FROM device_traffic WHERE (device_id, day, node_id) IN (
         SELECT device_id, day, node_id FROM device_traffic WHERE day < ? ORDER BY day LIMIT ?)`,
    ).run(day, limit),
};
