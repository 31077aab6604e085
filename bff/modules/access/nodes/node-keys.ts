import { formatDateTime } from "../../../../core/date-time";
import type { Database } from "../../../../db/database";
import { nodeAgents } from "../../../../db/queries/node-agents";
import { vpnNodes } from "../../../../db/queries/nodes";
import { AppError } from "../../../platform/errors";
import { randomToken } from "../../../platform/random";

/** Agent keys (nodes' and probes') are kept as hashes: shown once (CLI or panel), never readable again. */
export const keyHashOf = (key: string) => new Bun.CryptoHasher("sha256").update(key).digest("hex");

/** The key of an `Authorization: Bearer {KEY}` header, if it holds one. */
export const bearerKeyOf = (header: string | null) => /^Bearer\s+(\S+)$/i.exec(header ?? "")?.[1];

const newKey = () => `node_${randomToken(24)}`;

export type NodeIdentity = { id: number; name: string };

/** A new node and its key (DESIGN §8: `npm run operator -- node <name>` or the panel). */
export async function createNode(database: Database, name: string, now: number): Promise<string> {
  const key = newKey();
  await vpnNodes.insert(database, name, keyHashOf(key), now);
  return key;
}

/**
 * A fresh key for a node; the old one stops working at once, and a call with it is told the
 * key was replaced (`rotatedAt`, wall clock). Undefined: no such node.
 */
export async function rotateNodeKey(
  database: Database,
  nodeId: number,
  rotatedAt = Date.now(),
): Promise<string | undefined> {
  const key = newKey();
  const row = await vpnNodes.replaceKeyHash(database, nodeId, keyHashOf(key), rotatedAt);
  return row ? key : undefined;
}

/**
 * How often an agent's calls with a replaced key are written down: its time is for the panel
 * ("last at …"), and an agent retrying in a loop must not make every call a write.
 */
const previousKeyNoteMs = 1_000;

/**
 * A call with a replaced key: the node notes when (for the panel), and the agent is told its
 * key was replaced and when, so the log says what to do rather than "unknown key".
 */
async function refuseReplacedKey(database: Database, hash: string, wallNow: number): Promise<never> {
  const replaced = await nodeAgents.byPreviousKeyHash(database, hash);
  if (!replaced) throw new AppError("node_key_unknown");
  const lastNoted = replaced.previous_key_used_at;
  if (lastNoted === null || wallNow - lastNoted >= previousKeyNoteMs)
    await nodeAgents.notePreviousKeyUse(database, replaced.id, wallNow);
  const rotatedAt = Number(replaced.key_rotated_at);
  throw new AppError("node_key_rotated", {
    when: (language) => `${formatDateTime(rotatedAt, language, { timeZone: "UTC" })} UTC`,
  });
}

/** Disable (a time) or enable (null) a node; a disabled node's key is refused. */
export async function setNodeDisabled(database: Database, nodeId: number, disabledAt: number | null) {
  return (await vpnNodes.setDisabled(database, nodeId, disabledAt)) !== undefined;
}

/**
 * The node an `Authorization: Bearer {NODE_KEY}` header names, as its key finds it; 401
 * otherwise (a replaced key `node_key_rotated`, any other `node_key_unknown`), 403 for a
 * disabled node.
 */
export async function keyedNode(database: Database, header: string | null, wallNow = Date.now()) {
  const key = bearerKeyOf(header);
  if (!key) throw new AppError("node_key_missing");
  const hash = keyHashOf(key);
  const node = await vpnNodes.byKeyHash(database, hash);
  if (!node) return refuseReplacedKey(database, hash, wallNow);
  if (node.disabled_at !== null) throw new AppError("node_disabled");
  return node;
}

/** The node a key names (keyedNode), as its id and name. */
export async function nodeByAuthorization(
  database: Database,
  header: string | null,
  wallNow = Date.now(),
): Promise<NodeIdentity> {
  const node = await keyedNode(database, header, wallNow);
  return { id: node.id, name: node.name };
}
