import type { Database } from "../../../db/database";
import { vpnNodes } from "../../../db/queries/nodes";
import { dayMs } from "../../platform/calendar";
import type { NodeIdentity } from "./node-keys";
import { refuseBeyondLink } from "./node-link-bound";
import type { NodeEvents } from "./node-wire";

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

/**
 * A node's batch (DESIGN §8): bytes per device and UTC day of the product's clock, added
 * up per node; connections into the panel's logs under the node's name. Tags no device
 * has (unlinked and deleted since) are dropped and counted. One transaction: a batch is
 * stored whole or not at all, so a send that failed is simply sent again; and a batch whose
 * answer was lost after the commit, sent again under its id, is found among the ids stored
 * with the batches and acknowledged without being counted twice. A batch whose traffic is
 * more than the node's link (`linkGbps`) carries is refused whole (400) before anything.
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
  return database.transaction(async () => {
    if (events.batchId !== undefined) {
      const stored = await vpnNodes.rememberEventBatch(database, node.id, events.batchId, wallNow);
      if (stored.changes === 0) return { ignored: 0, repeated: true as const };
    }
    let ignored = 0;
    for (const sample of events.traffic) {
      if (sample.upload === 0 && sample.download === 0) continue;
      if ((await vpnNodes.addTraffic(database, node.id, day, sample)).changes === 0) ignored++;
    }
    for (const event of events.connections) {
      const at = productTimeOf(event.at, productNow, wallNow);
      if ((await vpnNodes.logConnection(database, node.name, at, event)).changes === 0) ignored++;
    }
    return { ignored };
  });
}
