import type { Database } from "../../../db/database";
import { statement } from "../../../db/database";
import { AppError } from "../../platform/errors";
import { randomToken } from "../../platform/random";

/** Node keys are kept as hashes: shown once (CLI or panel), never readable again. */
const hashOf = (key: string) => new Bun.CryptoHasher("sha256").update(key).digest("hex");

const newKey = () => `node_${randomToken(24)}`;

export type NodeIdentity = { id: number; name: string };

/** A new node and its key (DESIGN §8: `npm run operator -- node <name>` or the panel). */
export async function createNode(database: Database, name: string, now: number): Promise<string> {
  const key = newKey();
  await statement(database, "INSERT INTO vpn_nodes (name, key_hash, created_at) VALUES (?, ?, ?)").run(
    name,
    hashOf(key),
    now,
  );
  return key;
}

/** A fresh key for a node; the old one stops working at once. Undefined: no such node. */
export async function rotateNodeKey(database: Database, nodeId: number): Promise<string | undefined> {
  const key = newKey();
  const row = await statement<{ id: number }, [string, number]>(
    database,
    "UPDATE vpn_nodes SET key_hash = ? WHERE id = ? RETURNING id",
  ).get(hashOf(key), nodeId);
  return row ? key : undefined;
}

/** Disable (a time) or enable (null) a node; a disabled node's key is refused. */
export async function setNodeDisabled(database: Database, nodeId: number, disabledAt: number | null) {
  const row = await statement<{ id: number }, [number | null, number]>(
    database,
    "UPDATE vpn_nodes SET disabled_at = ? WHERE id = ? RETURNING id",
  ).get(disabledAt, nodeId);
  return row !== undefined;
}

/** The node an `Authorization: Bearer {NODE_KEY}` header names; 401 otherwise. */
export async function nodeByAuthorization(database: Database, header: string | null): Promise<NodeIdentity> {
  const key = /^Bearer\s+(\S+)$/i.exec(header ?? "")?.[1];
  if (!key) throw new AppError("UNAUTHORIZED", "A node key is required: Authorization: Bearer {NODE_KEY}.");
  const node = await statement<NodeIdentity & { disabled_at: number | null }, [string]>(
    database,
    "SELECT id, name, disabled_at FROM vpn_nodes WHERE key_hash = ?",
  ).get(hashOf(key));
  if (!node) throw new AppError("UNAUTHORIZED", "Unknown node key.");
  if (node.disabled_at !== null) throw new AppError("FORBIDDEN", "This node is disabled in the panel.");
  return { id: node.id, name: node.name };
}
