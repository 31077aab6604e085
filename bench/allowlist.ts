import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { type CapturedProcess, spawnCaptured, startCapturedServer } from "../tests/helpers/captured-process";
import { reaches } from "../tests/helpers/proxy-tunnel";
import { appConfig, freePort, nodeConfig, requireV2ray, startV2ray } from "../tests/helpers/v2ray-node";
import { SimulatedAgent } from "./allowlist-agents";
import { adminToken, credentialOfLink, deviceCall, panelNodes, payingCustomer } from "./allowlist-http";
import { seedAccess } from "./allowlist-seed";
import { cpuSecondsOf, median } from "./lib";

/**
 * DESIGN §8 and §10, access at scale: with 100,000 credentials allowed,
 * 1. one node's full resync within 60 s: the real agent (`agent/main.ts`) with an empty
 *    AGENT_STATE beside Debian's V2Ray with one VLESS inbound, timed from the agent's
 *    start until its report (read in the panel's Nodes data) holds every credential at the
 *    newest version; then seeded credentials are tried through the core itself;
 * 2. a change reaches 20 agents within 5 s at p99: 20 simulated agents long-poll the
 *    allow-list as the agent does, each after its own full list, while a real customer
 *    rotates a device's link through the cabinet's API again and again; each agent's first
 *    sight of each new credential is timed from the rotation's answer.
 * The server runs as its own process on a fresh SQLite file seeded in bulk.
 */
const credentialCount = Number(process.env.CREDENTIALS ?? 100_000);
const agentCount = Number(process.env.AGENTS ?? 20);
const changeCount = Number(process.env.CHANGES ?? 60);
const resyncBudgetSeconds = 60;
const changeBudgetSeconds = 5;

const seconds = (milliseconds: number) => (milliseconds / 1000).toFixed(2);

/** Polls until `condition` holds; past `limitMs` the bench stops with `what`. */
async function until(what: string, limitMs: number, condition: () => Promise<boolean> | boolean) {
  const startedAt = performance.now();
  while (!(await condition())) {
    if (performance.now() - startedAt > limitMs) throw new Error(`gave up waiting for ${what}`);
    await Bun.sleep(50);
  }
}

/** Nearest-rank percentile of sorted values. */
const percentile = (sorted: number[], fraction: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))] ?? Number.NaN;

requireV2ray();
const directory = mkdtempSync(join(tmpdir(), "kannt-allowlist-"));
const cleanups: (() => Promise<unknown> | unknown)[] = [];
const summary: { measure: string; measured: string; budget: string; met: boolean }[] = [];

async function fullResync(
  origin: string,
  token: string,
  newestVersion: number,
  samples: string[],
  nodeKey: string,
) {
  const ports = { api: await freePort(), vless: await freePort(), vmess: await freePort() };
  const accessLog = join(directory, "access.log");
  // nodeConfig has no options: its VMess inbound is dropped, so the core holds one inbound.
  const config = nodeConfig(ports, accessLog);
  config.inbounds = config.inbounds.filter((inbound) => inbound.tag !== "kannt-vmess");
  const { process: core, configPath } = await startV2ray(directory, "node", config, ports.api);
  cleanups.push(() => core.stop());

  const startedAt = performance.now();
  const startedWallMs = Date.now();
  const agent: CapturedProcess = spawnCaptured("agent/main.ts", {
    KANNT_URL: origin,
    NODE_KEY: nodeKey,
    NODE_HOST: "127.0.0.1",
    CORE: "v2ray",
    CORE_API: `127.0.0.1:${ports.api}`,
    CORE_CONFIG: configPath,
    CORE_ACCESS_LOG: accessLog,
    AGENT_STATE: join(directory, "agent-state.json"),
  });
  const stopAgent = async () => {
    if (agent.child.exitCode !== null || agent.child.signalCode !== null) return;
    agent.child.kill("SIGTERM");
    await agent.child.exited;
  };
  cleanups.push(stopAgent);
  const appliedLine = () =>
    agent
      .stdout()
      .split("\n")
      .find(
        (line) => line.includes('"allow-list applied"') && line.includes(`"credentials":${credentialCount}`),
      );
  await until("the agent to apply the full list", 15 * 60_000, () => {
    if (agent.child.exitCode !== null) throw new Error(`the agent exited: ${agent.stderr()}`);
    return appliedLine() !== undefined;
  });
  const loggedAt = performance.now();
  await until("the node's report in the panel", 60_000, async () => {
    const node = (await panelNodes(origin, token)).find((each) => each.name === "real-node");
    return node?.credentials.held === credentialCount && node.appliedVersion === newestVersion;
  });
  const reportedAt = performance.now();
  const cpu = { agent: cpuSecondsOf(agent.child.pid), core: cpuSecondsOf(core.child.pid) };

  const lines = agent.stdout().split("\n");
  const timeOf = (message: string) => {
    const line = lines.find((each) => each.includes(`"message":"${message}"`));
    return line ? Date.parse((JSON.parse(line) as { at: string }).at) : Number.NaN;
  };
  const agentUpMs = timeOf("kannt-agent started");
  const appliedMs = timeOf("allow-list applied");

  // The core itself: seeded credentials reach a local target through it, a made-up one does not.
  const marker = `allowlist-target-${randomUUID()}`;
  const target = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response(marker) });
  cleanups.push(() => target.stop(true));
  const madeUp = randomUUID();
  const routes = await Promise.all(
    [...samples, madeUp].map(async (id) => ({ proxyPort: await freePort(), protocol: "vless" as const, id })),
  );
  const lastRoute = routes.at(-1);
  if (!lastRoute) throw new Error("no routes");
  const { process: app } = await startV2ray(directory, "app", appConfig(ports, routes), lastRoute.proxyPort);
  cleanups.push(() => app.stop());
  const targetPort = target.port ?? 0;
  const reached: boolean[] = [];
  for (const route of routes) reached.push(await reaches(route.proxyPort, targetPort, marker));
  const seededReach = reached.slice(0, samples.length).every(Boolean);
  const madeUpReach = reached.at(-1) === true;

  await stopAgent();
  await app.stop();
  await core.stop();

  const totalMs = reportedAt - startedAt;
  console.log(`\n1. one node's full resync, ${credentialCount} credentials, V2Ray with one VLESS inbound`);
  console.log(
    `   agent start → report in the panel: ${seconds(totalMs)} s (budget ${resyncBudgetSeconds} s)`,
  );
  console.log(
    `   agent start → its "allow-list applied" line: ${seconds(loggedAt - startedAt)} s; process up to "started": ${seconds(agentUpMs - startedWallMs)} s; "started" → applied: ${seconds(appliedMs - agentUpMs)} s`,
  );
  const perCredential = (cpuSeconds: number) => ((cpuSeconds * 1e6) / credentialCount).toFixed(0);
  console.log(
    `   CPU used: agent ${cpu.agent.toFixed(1)} s (${perCredential(cpu.agent)} µs a credential), v2ray ${cpu.core.toFixed(1)} s (${perCredential(cpu.core)} µs)`,
  );
  console.log(
    `   through the core: ${samples.length} seeded credentials ${seededReach ? "reach" : "DO NOT reach"} the target; a made-up one ${madeUpReach ? "REACHES it" : "is refused"}`,
  );
  summary.push({
    measure: `one node's full resync (${credentialCount} credentials, real agent + V2Ray)`,
    measured: `${seconds(totalMs)} s`,
    budget: `≤ ${resyncBudgetSeconds} s`,
    met: totalMs <= resyncBudgetSeconds * 1000,
  });
  summary.push({
    measure: "the core after the resync: seeded credentials connect, a made-up one does not",
    measured: `${seededReach ? "yes" : "no"}, ${madeUpReach ? "it connects" : "refused"}`,
    budget: "yes, refused",
    met: seededReach && !madeUpReach,
  });
  return { appliedMs: appliedMs - agentUpMs };
}

type Change = { sentAt: number; answeredAt: number; id: string };

async function changesReachAgents(origin: string, keys: [string, string][]) {
  const agents = keys.map(([name, key]) => new SimulatedAgent(origin, key, name));
  cleanups.push(() => Promise.all(agents.map((agent) => agent.stop())));
  const fullListMs: number[] = [];
  let fullListBytes = 0;
  for (const agent of agents) {
    const startedAt = performance.now();
    fullListBytes = await agent.fetchFullList();
    fullListMs.push(performance.now() - startedAt);
    agent.start();
  }
  console.log(
    `\n2. ${agents.length} simulated agents took their full lists one after another: median ${seconds(median(fullListMs))} s each (${(fullListBytes / 1e6).toFixed(1)} MB of JSON, ${agents[0]?.entries.size} credentials)`,
  );

  // A customer may change device links 30 times an hour (access/link-limits.ts): the
  // rotations are spread over enough customers, each with one connected device.
  const customerCount = Math.ceil(changeCount / 25);
  const devices: { customer: Awaited<ReturnType<typeof payingCustomer>>; deviceId: string }[] = [];
  const firstIds: string[] = [];
  for (let index = 0; index < customerCount; index++) {
    const customer = await payingCustomer(origin, `allowlist-bench-${randomUUID()}@example.com`);
    const connected = await deviceCall(origin, customer, "connect");
    devices.push({ customer, deviceId: connected.deviceId });
    firstIds.push(await credentialOfLink(connected.subscriptionUrl, origin));
  }
  const firstId = firstIds.at(-1) ?? "";
  await until("every agent to see the connected devices", 30_000, () =>
    agents.every((agent) => firstIds.every((id) => agent.firstSeen.has(id))),
  );

  const changes: Change[] = [];
  for (let index = 0; index < changeCount; index++) {
    const device = devices[index % devices.length];
    if (!device) throw new Error("no device to rotate");
    const sentAt = performance.now();
    const rotated = await deviceCall(origin, device.customer, "resetLink", device.deviceId);
    const answeredAt = performance.now();
    changes.push({ sentAt, answeredAt, id: await credentialOfLink(rotated.subscriptionUrl, origin) });
    // 300 to 600 ms apart, spread so the changes do not fall in step with the server's beats.
    await Bun.sleep(300 + ((index * 137) % 300));
  }
  const lastId = changes.at(-1)?.id ?? firstId;
  await until("every agent to see the last change", 60_000, () =>
    agents.every((agent) => agent.firstSeen.has(lastId)),
  ).catch((error: Error) => console.error(error.message));
  await Promise.all(agents.map((agent) => agent.stop()));

  // An agent that took two changes in one answer saw the earlier one when it saw the later.
  const fromAnswer: number[] = [];
  const fromRequest: number[] = [];
  let missing = 0;
  for (const agent of agents) {
    let seenAt = Number.POSITIVE_INFINITY;
    const seen: number[] = [];
    for (const change of [...changes].reverse()) {
      seenAt = Math.min(seenAt, agent.firstSeen.get(change.id) ?? Number.POSITIVE_INFINITY);
      seen.push(seenAt);
    }
    seen.reverse();
    changes.forEach((change, index) => {
      const at = seen[index] ?? Number.POSITIVE_INFINITY;
      if (!Number.isFinite(at)) {
        missing++;
        return;
      }
      fromAnswer.push(at - change.answeredAt);
      fromRequest.push(at - change.sentAt);
    });
  }
  fromAnswer.sort((a, b) => a - b);
  fromRequest.sort((a, b) => a - b);
  const rotationMs = changes.map((change) => change.answeredAt - change.sentAt);
  const errors = agents.reduce((sum, agent) => sum + agent.errors, 0);
  const spread = (sorted: number[]) =>
    `p50 ${percentile(sorted, 0.5).toFixed(0)} ms, p99 ${percentile(sorted, 0.99).toFixed(0)} ms, max ${(sorted.at(-1) ?? Number.NaN).toFixed(0)} ms`;
  console.log(
    `   ${changes.length} link rotations through POST /api/profile/devices/resetLink (median answer ${median(rotationMs).toFixed(0)} ms), ${fromAnswer.length} samples (${agents.length} × ${changes.length}), ${missing} never seen, ${errors} agent errors`,
  );
  console.log(
    `   rotation answered → agent sees the new credential: ${spread(fromAnswer)} (budget p99 ${changeBudgetSeconds} s)`,
  );
  console.log(`   rotation sent → agent sees the new credential:     ${spread(fromRequest)}`);
  const p99 = percentile(fromAnswer, 0.99);
  summary.push({
    measure: `a change reaches ${agents.length} agents (${changes.length} rotations, ${credentialCount} credentials)`,
    measured: `p50 ${percentile(fromAnswer, 0.5).toFixed(0)} ms, p99 ${p99.toFixed(0)} ms, max ${(fromAnswer.at(-1) ?? Number.NaN).toFixed(0)} ms`,
    budget: `p99 ≤ ${changeBudgetSeconds} s`,
    met: missing === 0 && p99 <= changeBudgetSeconds * 1000,
  });
  return { fullListMs: median(fullListMs) };
}

const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(" ");
console.log(`load average before: ${load()} (${navigator.hardwareConcurrency} cores)`);
let exitCode = 0;
try {
  const seedStartedAt = performance.now();
  const simulatedNames = Array.from(
    { length: agentCount },
    (_, index) => `sim-${String(index + 1).padStart(2, "0")}`,
  );
  const seeded = await seedAccess(join(directory, "app.db"), credentialCount, [
    "real-node",
    ...simulatedNames,
  ]);
  console.log(
    `seeded ${credentialCount} customers with one device each in ${seconds(performance.now() - seedStartedAt)} s (allow-list version ${seeded.newestVersion})`,
  );
  const admin = { username: "bench-admin", password: `bench ${randomUUID()}` };
  const server = await startCapturedServer({
    DATABASE_PATH: join(directory, "app.db"),
    STATIC_DIR: join(directory, "no-site"),
    APP_MODE: "demo",
    ADMIN_USERNAME: admin.username,
    ADMIN_PASSWORD: admin.password,
    ALTCHA_MAX_NUMBER: "1000",
    BILLING_INTERVAL_SECONDS: "0",
    LOG_LEVEL: "error",
  });
  cleanups.push(() => server.stop());
  const token = await adminToken(server.origin, admin.username, admin.password);
  const nodeKey = (name: string) => seeded.nodeKeys.get(name) ?? "";

  const resync = await fullResync(
    server.origin,
    token,
    seeded.newestVersion,
    seeded.sampleCredentials,
    nodeKey("real-node"),
  );
  const delivery = await changesReachAgents(
    server.origin,
    simulatedNames.map((name) => [name, nodeKey(name)]),
  );
  console.log(
    `\n   where the resync's time goes: the server's full answer takes about ${seconds(delivery.fullListMs)} s (the simulated agents' median), so the agent spent about ${seconds(resync.appliedMs - delivery.fullListMs)} s putting ${credentialCount} users into the core (one AlterInbound call each, 32 in flight) and saving AGENT_STATE`,
  );
} catch (error) {
  console.error(error);
  exitCode = 1;
} finally {
  for (const cleanup of cleanups.reverse()) await Promise.resolve(cleanup()).catch(() => undefined);
  rmSync(directory, { recursive: true, force: true });
}

console.log(`\nload average after: ${load()}`);
console.log("\n| measure | measured | budget | |\n| --- | --- | --- | --- |");
for (const row of summary)
  console.log(`| ${row.measure} | ${row.measured} | ${row.budget} | ${row.met ? "met" : "**not met**"} |`);
if (exitCode === 0 && summary.some((row) => !row.met)) exitCode = 1;
process.exit(exitCode);
