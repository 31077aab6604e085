import { Gauge, type Registry } from "prom-client";
import type { Database } from "../../../../db/database";
import { type EnabledNode, vpnNodes } from "../../../../db/queries/nodes";
import type { Clock } from "../../../platform/clock";
import { allowListSize } from "../subscription/allowlist/allowlist";
import { isOnline, lagSeconds } from "./panel-nodes";

/**
 * The allow-list's size is the whole list judged by the access rule (100,000 rows at
 * scale): kept this long, so scrapes from several Prometheus servers, or a dashboard
 * refreshing, cost one count, and SQLite's one connection is not held by each of them.
 */
const allowListSizeTtlMs = 5_000;

/**
 * DESIGN §8's access metrics, computed when scraped: `kannt_nodes_online`,
 * `kannt_node_sync_lag_seconds{node}` (enabled nodes), `kannt_allowlist_credentials`; and
 * per enabled node what alert rules need to tell a dead agent from a dead core:
 * `kannt_node_up`, `kannt_node_core_up` and `kannt_node_credentials_held`.
 */
export function registerNodeMetrics(registry: Registry, database: Database, clock: Clock) {
  const registers = [registry];
  let enabledNodes: Promise<EnabledNode[]> | undefined;
  // Both node gauges read one query per scrape: whichever collects first starts it.
  const readEnabledNodes = () => {
    enabledNodes ??= vpnNodes.enabled(database).finally(() => {
      enabledNodes = undefined;
    });
    return enabledNodes;
  };
  let size: { value: Promise<number>; at: number } | undefined;
  const cachedAllowListSize = () => {
    const wallNow = Date.now();
    if (!size || wallNow - size.at > allowListSizeTtlMs) {
      const value = allowListSize(database, clock.now());
      size = { value, at: wallNow };
      // A failed count is not kept: the next scrape asks again.
      value.catch(() => {
        if (size?.value === value) size = undefined;
      });
    }
    return size.value;
  };

  new Gauge({
    name: "kannt_nodes_online",
    help: "Enabled VPN nodes whose agent reported within the last 30 seconds.",
    registers,
    async collect() {
      const wallNow = Date.now();
      const nodes = await readEnabledNodes();
      this.set(nodes.filter((node) => isOnline({ ...node, disabled_at: null }, wallNow)).length);
    },
  });
  /** A gauge with one series per enabled node, set from the scrape's one reading of them. */
  const perNode = (name: string, help: string, valueFor: (node: EnabledNode, wallNow: number) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ["node"] as const,
      registers,
      async collect() {
        const wallNow = Date.now();
        const nodes = await readEnabledNodes();
        // A node disabled since the last scrape leaves no stale series behind.
        this.reset();
        for (const node of nodes) this.set({ node: node.name }, valueFor(node, wallNow));
      },
    });
  perNode(
    "kannt_node_sync_lag_seconds",
    "Per enabled node: how long the oldest allow-list change it has not applied has waited (0: up to date).",
    (node, wallNow) => lagSeconds(node.pending_since, wallNow),
  );
  const isAgentUp = (node: EnabledNode, wallNow: number) => isOnline({ ...node, disabled_at: null }, wallNow);
  perNode(
    "kannt_node_up",
    "Per enabled node: 1 when its agent reported within the last 30 seconds, else 0.",
    (node, wallNow) => (isAgentUp(node, wallNow) ? 1 : 0),
  );
  perNode(
    "kannt_node_core_up",
    "Per enabled node: 1 when its agent's last report, within the last 30 seconds, said the core is up, else 0.",
    // Agents before coreState say nothing of it: their report is read as a core that is up.
    (node, wallNow) => (isAgentUp(node, wallNow) && node.core_state !== "down" ? 1 : 0),
  );
  perNode(
    "kannt_node_credentials_held",
    "Per enabled node: the credentials its core holds, as its agent last reported (0 while the core is down).",
    (node) => Number(node.credentials_count),
  );
  new Gauge({
    name: "kannt_allowlist_credentials",
    help: "Credentials on the allow-list now: devices in use whose account has access.",
    registers,
    async collect() {
      this.set(await cachedAllowListSize());
    },
  });
}
