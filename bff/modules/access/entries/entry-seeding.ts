import type { InboundReport } from "../../../../agent/contract/node-api";
import type { Database } from "../../../../db/database";
import { nodeEntries } from "../../../../db/queries/entries";

/**
 * A new inbound gets one entry from the node's report (DESIGN §8), last in the operator's
 * order, with every setting the inbound's own. An inbound that has entries, even all
 * switched off, gets none: switching off is the operator's word.
 */
export async function seedEntries(
  database: Database,
  nodeId: number,
  inbounds: readonly Pick<InboundReport, "tag">[],
  now: number,
): Promise<void> {
  const known = new Set((await nodeEntries.inboundTagsOf(database, nodeId)).map((row) => row.inbound_tag));
  const fresh = inbounds.filter((inbound) => !known.has(inbound.tag));
  if (fresh.length === 0) return;
  await database.transaction(async () => {
    // Read again inside: two reports of one node at once seed each inbound once.
    const seeded = new Set((await nodeEntries.inboundTagsOf(database, nodeId)).map((row) => row.inbound_tag));
    let position = await nodeEntries.nextPosition(database);
    for (const inbound of fresh) {
      if (seeded.has(inbound.tag)) continue;
      seeded.add(inbound.tag);
      await nodeEntries.insert(database, nodeId, inbound.tag, position++, now);
    }
  });
}
