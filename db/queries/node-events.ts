import type { Database } from "../database";
import { statement } from "../database";
import { jsonRows, largestExactInteger, smallerOf } from "../dialect";

/** A device's bytes in one batch, its samples added up. */
export type TrafficRow = { tag: string; upload: number; download: number };
/** A connection as stored: `at` on the product's clock, `success` 1 or 0. */
export type ConnectionRow = { tag: string; at: number; ip: string; success: 0 | 1 };

/**
 * A node's batch of events, written set-wise (DESIGN §8): each statement takes the whole
 * batch as one JSON parameter, so a batch of 1,000 samples costs three statements, not
 * 1,000, and the transaction that holds SQLite's one writer is short.
 */
export const nodeEventRows = {
  /** Which of `tags` a device holds (attached or not): the others are dropped and counted. */
  knownTags: async (db: Database, tags: readonly string[]) =>
    (
      await statement<{ node_tag: string }, [string]>(
        db,
        `SELECT d.node_tag FROM ${jsonRows(db, "j", [["tag", "TEXT"]])} JOIN devices d ON d.node_tag = j.tag`,
      ).all(JSON.stringify(tags.map((tag) => ({ tag }))))
    ).map((row) => row.node_tag),

  /**
   * Adds each row's bytes to its device's traffic of `day` through node `nodeId`; rows whose
   * tag no device holds are skipped. One row per tag (PostgreSQL refuses to update a row twice
   * in one statement). A day's row never passes 2^53 − 1: each addend is at most that, so the
   * addition itself stays far inside 64 bits, and sums of rows stay computable on both engines.
   * (`WHERE true`: SQLite reads an ON CONFLICT right after a join's ON as part of the join.)
   */
  addTraffic: (db: Database, nodeId: number, day: number, rows: readonly TrafficRow[]) =>
    statement<never, [number, number, string]>(
      db,
      `INSERT INTO device_traffic (device_id, day, node_id, upload, download)
       SELECT d.id, ?, ?, j.upload, j.download
         FROM ${jsonRows(db, "j", [
           ["tag", "TEXT"],
           ["upload", "BIGINT"],
           ["download", "BIGINT"],
         ])} JOIN devices d ON d.node_tag = j.tag
         WHERE true
       ON CONFLICT (device_id, day, node_id) DO UPDATE
         SET upload = ${smallerOf(db)}(device_traffic.upload + excluded.upload, ${largestExactInteger}),
           download = ${smallerOf(db)}(device_traffic.download + excluded.download, ${largestExactInteger})`,
    ).run(day, nodeId, JSON.stringify(rows)),

  /** Connections to the devices that hold their tags, under the node's name; others are skipped. */
  logConnections: (db: Database, nodeName: string, rows: readonly ConnectionRow[]) =>
    statement<never, [string, string]>(
      db,
      `INSERT INTO connection_logs (user_id, device_id, server_name, connected_at, user_ip, success)
       SELECT d.user_id, d.id, ?, j.at, j.ip, j.success
         FROM ${jsonRows(db, "j", [
           ["tag", "TEXT"],
           ["at", "BIGINT"],
           ["ip", "TEXT"],
           ["success", "BIGINT"],
         ])} JOIN devices d ON d.node_tag = j.tag`,
    ).run(nodeName, JSON.stringify(rows)),
};
