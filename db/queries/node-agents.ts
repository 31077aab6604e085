import type { Database } from "../database";
import { statement } from "../database";

/**
 * What the node API notes of the agents that call it (DESIGN §8): the last use of a node's
 * replaced key, and the one agent instance that holds its key (and the last one refused).
 * Times are wall-clock milliseconds, like a node's last_seen_at.
 */
export const nodeAgents = {
  /** The node whose replaced key hashes to `keyHash`. */
  byPreviousKeyHash: (db: Database, keyHash: string) =>
    statement<{ id: number; key_rotated_at: number; previous_key_used_at: number | null }, [string]>(
      db,
      "SELECT id, key_rotated_at, previous_key_used_at FROM vpn_nodes WHERE previous_key_hash = ?",
    ).get(keyHash),

  /** An agent called with the node's replaced key at `usedAt` (wall clock). */
  notePreviousKeyUse: (db: Database, id: number, usedAt: number) =>
    statement<never, [number, number]>(db, "UPDATE vpn_nodes SET previous_key_used_at = ? WHERE id = ?").run(
      usedAt,
      id,
    ),

  /** The same agent instance was heard from again at `seenAt` (wall clock). */
  noteAgentSeen: (db: Database, id: number, instance: string, seenAt: number) =>
    statement<never, [number, number, string]>(
      db,
      "UPDATE vpn_nodes SET agent_seen_at = ? WHERE id = ? AND agent_instance = ?",
    ).run(seenAt, id, instance),

  /**
   * `instance` becomes the node's agent, if the agent is still the one last read (`was`):
   * of two instances taking over at once, one does. No change: another got there first.
   */
  takeOverAgent: (
    db: Database,
    id: number,
    instance: string,
    seenAt: number,
    was: { instance: string | null; seenAt: number | null },
  ) =>
    statement<never, [string, number, number, string | null, number | null]>(
      db,
      `UPDATE vpn_nodes SET agent_instance = ?, agent_seen_at = ?
       WHERE id = ? AND agent_instance IS NOT DISTINCT FROM ? AND agent_seen_at IS NOT DISTINCT FROM ?`,
    ).run(instance, seenAt, id, was.instance, was.seenAt),

  /** A second agent instance was refused at `at` (wall clock), calling from `address`. */
  noteRefusedAgent: (db: Database, id: number, instance: string, at: number, address: string | null) =>
    statement<never, [string, number, string | null, number]>(
      db,
      `UPDATE vpn_nodes SET refused_agent_instance = ?, refused_agent_at = ?, refused_agent_address = ?
       WHERE id = ?`,
    ).run(instance, at, address, id),
};
