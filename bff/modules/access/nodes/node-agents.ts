import type { Database } from "../../../../db/database";
import { nodeAgents } from "../../../../db/queries/node-agents";
import type { KeyedNode } from "../../../../db/queries/nodes";
import { AppError } from "../../../platform/errors";
import { keyedNode, type NodeIdentity } from "./node-keys";

/** An agent (a node's or a probe's) silent this long (wall clock) has let its key go: another instance may take it. */
export const agentSilenceMs = 60_000;
/**
 * How often the same agent's calls, or a refused one's, are written down: the 60 s rule
 * needs no finer time, and an agent calling several times a second must not make each
 * call a write.
 */
const noteEveryMs = 1_000;

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What an agent's call says of itself, besides its key. */
export type AgentCall = {
  authorization: string | null;
  /** The `X-Agent-Instance` header: a UUID the agent keeps in its state file. */
  instance: string | null;
  /** The caller's address (DESIGN §12's rule), for the panel's note of a refused agent. */
  address: string | null;
};

/**
 * The instance a call names: its UUID in lower case, or '' without the header (clients of the
 * API other than the agent then count as one instance, as before). Anything else is 400.
 */
export function agentInstanceOf(header: string | null): string {
  const value = header?.trim() ?? "";
  if (value === "") return "";
  if (!uuidPattern.test(value)) throw new AppError("invalid_agent_instance");
  return value.toLowerCase();
}

/**
 * One node key is one agent (DESIGN §8). The instance last seen with the key keeps it while
 * it was heard from within 60 s: a call from another instance is refused (409
 * `node_agent_conflict`) before it changes anything, and noted for the panel. Once the
 * last one has been silent for 60 s, the next instance to call takes the key.
 */
async function admitAgent(
  database: Database,
  node: KeyedNode,
  call: { instance: string; address: string | null },
  wallNow: number,
): Promise<void> {
  const { instance } = call;
  const seenAt = node.agent_seen_at === null ? null : Number(node.agent_seen_at);
  if (node.agent_instance === instance && seenAt !== null) {
    if (wallNow - seenAt >= noteEveryMs) await nodeAgents.noteAgentSeen(database, node.id, instance, wallNow);
    return;
  }
  const isHeld = node.agent_instance !== null && seenAt !== null && wallNow - seenAt < agentSilenceMs;
  if (!isHeld) {
    const taken = await nodeAgents.takeOverAgent(database, node.id, instance, wallNow, {
      instance: node.agent_instance,
      seenAt: node.agent_seen_at,
    });
    if (taken.changes > 0) return;
  }
  const refusedAt = node.refused_agent_at === null ? null : Number(node.refused_agent_at);
  if (refusedAt === null || wallNow - refusedAt >= noteEveryMs)
    await nodeAgents.noteRefusedAgent(database, node.id, instance, wallNow, call.address);
  const silentSeconds = seenAt === null ? 0 : Math.max(0, Math.round((wallNow - seenAt) / 1000));
  throw new AppError("node_agent_conflict", { seconds: silentSeconds });
}

/**
 * An agent's call: its key names an enabled node (401, 403 otherwise) and its instance is
 * the node's one agent (409 otherwise). Nothing of the call is served before this passes.
 */
export async function authorizeAgentCall(
  database: Database,
  call: AgentCall,
  wallNow = Date.now(),
): Promise<NodeIdentity> {
  const node = await keyedNode(database, call.authorization, wallNow);
  const instance = agentInstanceOf(call.instance);
  await admitAgent(database, node, { instance, address: call.address }, wallNow);
  return { id: node.id, name: node.name };
}
