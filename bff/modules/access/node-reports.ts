import type { Database } from "../../../db/database";
import { statement } from "../../../db/database";
import type { NodeIdentity } from "./node-keys";
import type { NodeReport } from "./node-wire";

/**
 * A node's report of itself (DESIGN §8), kept for the links and the panel. `last_seen_at`
 * is the wall clock: whether a real node is online has nothing to do with the demo's
 * test clock.
 */
export async function storeNodeReport(database: Database, node: NodeIdentity, report: NodeReport) {
  await statement<never, [string, string, string, string, number, number, number, number]>(
    database,
    `UPDATE vpn_nodes SET host = ?, core = ?, core_version = ?, inbounds = ?, applied_version = ?,
       credentials_count = ?, last_seen_at = ? WHERE id = ?`,
  ).run(
    report.host,
    report.core,
    report.coreVersion,
    JSON.stringify(report.inbounds),
    report.appliedVersion,
    report.credentials,
    Date.now(),
    node.id,
  );
}
