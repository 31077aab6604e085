import { describe, expect, test } from "vitest";
import type { NodeReport } from "../../../../agent/contract/node-api";
import { listNodes } from "../../../../bff/modules/access/nodes/panel-nodes";
import { apiOf, refusalOf } from "../../../helpers/api";
import { makeTestApp } from "../../../helpers/app";
import { nodeHeaders, sampleReport } from "../../../helpers/nodes";

/** DESIGN §8: what the agent reports is the core's state, and the panel and metrics show it. */

async function nodes() {
  const testApp = await makeTestApp();
  const { app, context } = testApp;
  const report = (headers: Record<string, string>, body: Partial<NodeReport>) =>
    apiOf(app).nodes.report.post({ ...sampleReport, ...body }, { headers });
  const listed = async (name: string) =>
    (await listNodes(context.database, context.clock.now())).find((node) => node.name === name);
  const scrape = async () => {
    const lines = (await context.metrics.registry.metrics()).split("\n");
    return (series: string) => {
      const line = lines.find((candidate) => candidate.startsWith(`${series} `));
      return line === undefined ? undefined : Number(line.split(" ")[1]);
    };
  };
  return { ...testApp, report, listed, scrape };
}

describe("a node's core state", () => {
  test("a core reported down shows as such in the panel and the metrics, holding nothing; up again, as it reports", async () => {
    const { context, report, listed, scrape } = await nodes();
    const node = await nodeHeaders(context, "core-watch");
    expect((await report(node, { coreState: "down", credentials: 5 })).status).toBe(200);
    expect(await listed("core-watch")).toMatchObject({
      online: true,
      coreState: "down",
      credentials: { held: 0, expected: 0 },
    });
    let value = await scrape();
    expect(value('kannt_node_up{node="core-watch"}')).toBe(1);
    expect(value('kannt_node_core_up{node="core-watch"}')).toBe(0);
    expect(value('kannt_node_credentials_held{node="core-watch"}')).toBe(0);

    expect((await report(node, { coreState: "up", credentials: 3 })).status).toBe(200);
    expect(await listed("core-watch")).toMatchObject({ coreState: "up", credentials: { held: 3 } });
    value = await scrape();
    expect(value('kannt_node_core_up{node="core-watch"}')).toBe(1);
    expect(value('kannt_node_credentials_held{node="core-watch"}')).toBe(3);

    // An agent from before coreState says nothing of it: its core counts as up.
    expect((await report(node, { credentials: 2 })).status).toBe(200);
    expect((await listed("core-watch"))?.coreState).toBe("up");
    expect((await scrape())('kannt_node_core_up{node="core-watch"}')).toBe(1);

    const bad = await refusalOf(report(node, { coreState: "sideways" as never }));
    expect(bad.status).toBe(400);
    expect(bad.message).toBe('Field "coreState": must be one of: up, down.');
  });

  test("a node that never reported has no sync lag and no core state, and its series say down", async () => {
    const { context, listed, scrape } = await nodes();
    await nodeHeaders(context, "never-reported");
    expect(await listed("never-reported")).toMatchObject({
      online: false,
      lastSeenAt: null,
      coreState: null,
      syncLagSeconds: null,
    });
    const value = await scrape();
    expect(value('kannt_node_up{node="never-reported"}')).toBe(0);
    expect(value('kannt_node_core_up{node="never-reported"}')).toBe(0);
    expect(value('kannt_node_credentials_held{node="never-reported"}')).toBe(0);
  });

  test("an agent silent for more than 30 s is down, and so is its core as far as anyone knows; disabled nodes have no series", async () => {
    const { context, report, scrape } = await nodes();
    const quiet = await nodeHeaders(context, "gone-quiet");
    const off = await nodeHeaders(context, "switched-off");
    for (const node of [quiet, off])
      expect((await report(node, { coreState: "up", credentials: 4 })).status).toBe(200);
    await context.database.run("UPDATE vpn_nodes SET last_seen_at = ? WHERE name = 'gone-quiet'", [
      Date.now() - 31_000,
    ]);
    await context.database.run("UPDATE vpn_nodes SET disabled_at = ? WHERE name = 'switched-off'", [
      context.clock.now(),
    ]);
    const value = await scrape();
    expect(value('kannt_node_up{node="gone-quiet"}')).toBe(0);
    expect(value('kannt_node_core_up{node="gone-quiet"}')).toBe(0);
    expect(value('kannt_node_credentials_held{node="gone-quiet"}')).toBe(4);
    for (const name of ["kannt_node_up", "kannt_node_core_up", "kannt_node_credentials_held"])
      expect(value(`${name}{node="switched-off"}`)).toBeUndefined();
    const text = await context.metrics.registry.metrics();
    for (const name of ["kannt_node_up", "kannt_node_core_up", "kannt_node_credentials_held"]) {
      expect(text).toContain(`# HELP ${name} `);
      expect(text).toContain(`# TYPE ${name} gauge`);
    }
  });
});
