import type { InboundReport } from "../../../../agent/contract/node-api";
import { dayMs } from "../../../../core/calendar";
import { isoTime } from "../../../../core/date-time";
import type { Database } from "../../../../db/database";
import { type NodeRow, vpnNodes } from "../../../../db/queries/nodes";
import { AppError } from "../../../platform/errors";
import { type Actor, recordAction } from "../../operators/accounts";
import { allowListSize } from "../subscription/allowlist/allowlist";
import { createNode, rotateNodeKey, setNodeDisabled } from "./node-keys";
import type { node } from "./panel-nodes-model";

/**
 * A node is online while its agent's heartbeat (at least every 10 s, DESIGN §8) is under
 * this old by the wall clock: three missed beats, so one slow report does not flap it.
 */
export const onlineWithinMs = 30_000;

/** How long the panel shows a second agent that was refused: past a day it is history, not news. */
const refusedAgentShownMs = dayMs;

/**
 * A node's name: it labels the node's metric series and names the server in client apps'
 * link lists, so it is kept to characters every one of them carries as they are.
 */
const namePattern = /^[A-Za-z0-9._-]{1,64}$/;

/** The name as it will be stored, or a 400 saying the rule. */
export function validNodeName(name: string): string {
  const trimmed = name.trim();
  if (!namePattern.test(trimmed)) throw new AppError("invalid_node_name");
  return trimmed;
}

export type InboundSummary = Pick<InboundReport, "tag" | "protocol" | "port" | "network" | "security">;

/** A node as the panel's Nodes screen shows it (panel-nodes-model.ts). */
export type NodeView = typeof node.static;

/** Seconds the node's oldest unapplied change has waited, by the wall clock it was stamped with. */
export const lagSeconds = (pendingSinceAt: number | null, wallNow: number) =>
  pendingSinceAt === null ? 0 : Math.max(0, wallNow - pendingSinceAt) / 1000;

export const isOnline = (
  node: { disabled_at: number | null; last_seen_at: number | null },
  wallNow: number,
) => node.disabled_at === null && node.last_seen_at !== null && wallNow - node.last_seen_at <= onlineWithinMs;

/**
 * The inbounds column holds what the agent reported; a malformed one shows as none
 * rather than failing the whole screen.
 */
function inboundsOf(json: string): InboundSummary[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  return parsed.flatMap((item) => {
    if (typeof item !== "object" || item === null) return [];
    const { tag, protocol, port, network, security } = item as Record<string, unknown>;
    if (typeof protocol !== "string" || typeof port !== "number") return [];
    return [
      {
        tag: typeof tag === "string" ? tag : "",
        protocol: protocol as InboundSummary["protocol"],
        port,
        network: (typeof network === "string" ? network : "tcp") as InboundSummary["network"],
        security: (typeof security === "string" ? security : "none") as InboundSummary["security"],
      },
    ];
  });
}

function viewOf(row: NodeRow, expected: number, wallNow: number): NodeView {
  return {
    id: row.id,
    name: row.name,
    host: row.host,
    online: isOnline(row, wallNow),
    lastSeenAt: isoTime(row.last_seen_at),
    core: row.core,
    coreVersion: row.core_version,
    coreState: row.last_seen_at === null ? null : (row.core_state ?? "up"),
    inbounds: inboundsOf(row.inbounds),
    credentials: { held: row.credentials_count, expected },
    appliedVersion: row.applied_version,
    syncLagSeconds: row.last_seen_at === null ? null : Math.round(lagSeconds(row.pending_since, wallNow)),
    trafficToday: { upload: row.upload_today, download: row.download_today },
    disabled: row.disabled_at !== null,
    createdAt: isoTime(row.created_at),
    oldKeyLastUsedAt: isoTime(row.previous_key_used_at),
    refusedAgent:
      row.refused_agent_at !== null && wallNow - Number(row.refused_agent_at) < refusedAgentShownMs
        ? { at: isoTime(row.refused_agent_at), address: row.refused_agent_address }
        : null,
  };
}

/** Days since the epoch, UTC: the `day` of device_traffic. */
const dayOf = (now: number) => Math.floor(now / dayMs);

/** Every node, by name. `now` is the billing clock (traffic's day, the allow-list); online and lag use the wall clock. */
export async function listNodes(database: Database, now: number, wallNow = Date.now()): Promise<NodeView[]> {
  const expected = await allowListSize(database, now);
  const rows = await vpnNodes.list(database, dayOf(now));
  return rows.map((row) => viewOf(row, expected, wallNow));
}

async function nodeView(database: Database, id: number, now: number): Promise<NodeView> {
  const row = await vpnNodes.withTraffic(database, id, dayOf(now));
  if (!row) throw new AppError("node_not_found");
  return viewOf(row, await allowListSize(database, now), Date.now());
}

async function nodeName(database: Database, id: number): Promise<string> {
  const row = await vpnNodes.nameOf(database, id);
  if (!row) throw new AppError("node_not_found");
  return row.name;
}

const record = (database: Database, action: string, name: string, now: number, actor: Actor) =>
  recordAction(database, actor, action, { name }, now);

/**
 * A new node and its key, shown once (the panel, or `npm run operator -- node <name>`
 * with no actor). Names are unique in any letter case: two nodes "Fi-1" and "fi-1" would
 * read as one in the panel and in client apps' lists.
 */
export async function addNode(
  database: Database,
  requestedName: string,
  now: number,
  actor: Actor,
): Promise<{ id: number; name: string; key: string }> {
  const name = validNodeName(requestedName);
  // The look-up and the insert in one transaction: of two creations of one name at once
  // (the CLI and the panel), one makes it and the other is refused.
  return database.transaction(async () => {
    const taken = await vpnNodes.byNameAnyCase(database, name);
    if (taken) throw new AppError("node_name_taken", { name: taken.name });
    const key = await createNode(database, name, now);
    const created = await vpnNodes.idByName(database, name);
    if (!created) throw new Error("the new node vanished");
    await record(database, "node.create", name, now, actor);
    return { id: created.id, name, key };
  });
}

/** The panel's add: the node as listed, and its key once. */
export async function addNodeFromPanel(database: Database, name: string, now: number, actor: Actor) {
  const { id, key } = await addNode(database, name, now, actor);
  return { success: true as const, node: await nodeView(database, id, now), key };
}

/** A new key, shown once; the old one stops working at once. */
export async function rotateKeyOf(database: Database, id: number, now: number, actor: Actor) {
  const key = await database.transaction(async () => {
    const name = await nodeName(database, id);
    const fresh = await rotateNodeKey(database, id);
    if (!fresh) throw new AppError("node_not_found");
    await record(database, "node.rotate-key", name, now, actor);
    return fresh;
  });
  return { success: true as const, node: await nodeView(database, id, now), key };
}

/**
 * Disabled: its key is refused (403) from the next call, it counts as offline and drops
 * out of the metrics. Enabled: its key works again. No change, no audit entry.
 */
export async function setDisabledOf(
  database: Database,
  id: number,
  disabled: boolean,
  now: number,
  actor: Actor,
) {
  await database.transaction(async () => {
    const row = await vpnNodes.nameAndState(database, id);
    if (!row) throw new AppError("node_not_found");
    if ((row.disabled_at !== null) === disabled) return;
    await setNodeDisabled(database, id, disabled ? now : null);
    await record(database, disabled ? "node.disable" : "node.enable", row.name, now, actor);
  });
  return { success: true as const, node: await nodeView(database, id, now) };
}
