import type { Database } from "../../../db/database";
import { vpnNodes } from "../../../db/queries/nodes";
import { AppError } from "../../platform/errors";
import { randomToken } from "../../platform/random";

/** Node keys are kept as hashes: shown once (CLI or panel), never readable again. */
const hashOf = (key: string) => new Bun.CryptoHasher("sha256").update(key).digest("hex");

const newKey = () => `node_${randomToken(24)}`;

export type NodeIdentity = { id: number; name: string };

/** A new node and its key (DESIGN §8: `npm run operator -- node <name>` or the panel). */
export async function createNode(database: Database, name: string, now: number): Promise<string> {
  const key = newKey();
  await vpnNodes.insert(database, name, hashOf(key), now);
  return key;
}

/** A fresh key for a node; the old one stops working at once. Undefined: no such node. */
export async function rotateNodeKey(database: Database, nodeId: number): Promise<string | undefined> {
  const key = newKey();
  const row = await vpnNodes.setKeyHash(database, nodeId, hashOf(key));
  return row ? key : undefined;
}

/** Disable (a time) or enable (null) a node; a disabled node's key is refused. */
export async function setNodeDisabled(database: Database, nodeId: number, disabledAt: number | null) {
  return (await vpnNodes.setDisabled(database, nodeId, disabledAt)) !== undefined;
}

/** The node an `Authorization: Bearer {NODE_KEY}` header names; 401 otherwise. */
export async function nodeByAuthorization(database: Database, header: string | null): Promise<NodeIdentity> {
  const key = /^Bearer\s+(\S+)$/i.exec(header ?? "")?.[1];
  if (!key) throw new AppError("node_key_missing");
  const node = await vpnNodes.byKeyHash(database, hashOf(key));
  if (!node) throw new AppError("node_key_unknown");
  if (node.disabled_at !== null) throw new AppError("node_disabled");
  return { id: node.id, name: node.name };
}
