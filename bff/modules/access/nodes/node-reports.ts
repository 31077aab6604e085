import type { NodeReport } from "../../../../agent/contract/node-api";
import type { Database } from "../../../../db/database";
import { vpnNodes } from "../../../../db/queries/nodes";
import { seedEntries } from "../entries/entry-seeding";
import type { NodeIdentity } from "./node-keys";

/**
 * A node's report of itself (DESIGN §8), kept for the links and the panel. `last_seen_at`
 * is the wall clock: whether a real node is online has nothing to do with the demo's
 * test clock. A core that is down holds no credential the agent can vouch for: 0. An
 * inbound seen for the first time gets its entry.
 */
export async function storeNodeReport(database: Database, node: NodeIdentity, report: NodeReport) {
  await vpnNodes.storeReport(
    database,
    node.id,
    {
      host: report.host,
      core: report.core,
      coreVersion: report.coreVersion,
      inbounds: JSON.stringify(report.inbounds),
      appliedVersion: report.appliedVersion,
      credentials: report.coreState === "down" ? 0 : report.credentials,
      coreState: report.coreState ?? null,
    },
    Date.now(),
  );
  await seedEntries(database, node.id, report.inbounds, Date.now());
}
