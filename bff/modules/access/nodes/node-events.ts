import type { NodeEvents } from "../../../../agent/contract/node-api";
import type { Database } from "../../../../db/database";
import { type ConnectionRow, nodeEventRows, type TrafficRow } from "../../../../db/queries/node-events";
import { vpnNodes } from "../../../../db/queries/nodes";
import { dayMs } from "../../../platform/calendar";
import type { NodeIdentity } from "./node-keys";
import { refuseBeyondLink } from "./node-link-bound";

/** A node clock further than this from ours is not believed: the event is dated now. */
const believableSkewMs = dayMs;

/**
 * An event's wall-clock time on the product's clock (the demo's test clock runs ahead of
 * the wall clock by its offset), so the panel's logs and their retention agree with
 * everything else the product dates.
 */
export function productTimeOf(at: number, productNow: number, wallNow: number): number {
  return Math.abs(at - wallNow) > believableSkewMs ? productNow : at + (productNow - wallNow);
}

/** A batch's samples added up per device tag, those that moved no byte left out. */
function trafficByTag(traffic: NodeEvents["traffic"]): Map<string, TrafficRow> {
  const rows = new Map<string, TrafficRow>();
  for (const { tag, upload, download } of traffic) {
    if (upload === 0 && download === 0) continue;
    const row = rows.get(tag) ?? { tag, upload: 0, download: 0 };
    row.upload += upload;
    row.download += download;
    rows.set(tag, row);
  }
  return rows;
}

/**
 * A node's batch (DESIGN §8): bytes per device and UTC day of the product's clock, added
 * up per node; connections into the panel's logs under the node's name. Tags no device
 * has (unlinked and deleted since) are dropped and counted. One transaction of a few
 * set-wise statements, whatever the batch's size: a batch is stored whole or not at all, so
 * a send that failed is simply sent again, and SQLite's one writer is held briefly. A batch
 * whose answer was lost after the commit, sent again under its id, is found among the ids
 * stored with the batches and acknowledged without being counted twice. A batch whose
 * traffic is more than the node's link (`linkGbps`) carries is refused whole (400) before
 * anything.
 */
export function storeNodeEvents(
  database: Database,
  node: NodeIdentity,
  events: NodeEvents,
  { productNow, linkGbps }: { productNow: number; linkGbps: number },
): Promise<{ ignored: number; repeated?: true }> {
  refuseBeyondLink(events.traffic, linkGbps, events.periodMs);
  const wallNow = Date.now();
  const day = Math.floor(productNow / dayMs);
  const traffic = trafficByTag(events.traffic);
  const connections: ConnectionRow[] = events.connections.map((event) => ({
    tag: event.tag,
    at: productTimeOf(event.at, productNow, wallNow),
    ip: event.clientIp,
    success: event.success ? 1 : 0,
  }));
  const tags = [...new Set([...traffic.keys(), ...connections.map((event) => event.tag)])];
  return database.transaction(async () => {
    if (events.batchId !== undefined) {
      const stored = await vpnNodes.rememberEventBatch(database, node.id, events.batchId, wallNow);
      if (stored.changes === 0) return { ignored: 0, repeated: true as const };
    }
    if (tags.length === 0) return { ignored: 0 };
    const known = new Set(await nodeEventRows.knownTags(database, tags));
    if (traffic.size > 0) await nodeEventRows.addTraffic(database, node.id, day, [...traffic.values()]);
    if (connections.length > 0) await nodeEventRows.logConnections(database, node.name, connections);
    const unknownSamples = events.traffic.filter(
      (sample) => (sample.upload > 0 || sample.download > 0) && !known.has(sample.tag),
    ).length;
    const unknownEvents = connections.filter((event) => !known.has(event.tag)).length;
    return { ignored: unknownSamples + unknownEvents };
  });
}
