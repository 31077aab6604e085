import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import type { ProbeEntry } from "../agent/contract/probe-api";
import { type CapturedProcess, spawnCapturedCommand } from "../tests/helpers/captured-process";
import { FakeProbeApi } from "../tests/helpers/fake-probe-api";
import { node22 } from "../tests/helpers/real-core-rig";
import { freePort, requireV2ray, startV2ray } from "../tests/helpers/v2ray-node";
import { cpuSecondsOf, median, requireCommand } from "./lib";

/**
 * DESIGN §10: probing 50 entries a minute costs a node's agent at most 2% of one core. A
 * V2Ray node with 50 inbounds (VLESS and VMess in turn, each holding the probe's
 * credential), a fake product serving them as 50 entries, and the real probe agent
 * (`AGENT_MODE=probe`, on Node 22 as a probe machine runs it; `RUNTIME=bun` for Bun) with
 * Debian's V2Ray as its client, fetching a small target through every entry. The schedule
 * is compressed (a round every INTERVAL_SECONDS, 5 by default): the agent's CPU time
 * (/proc/<pid>/stat, user + system) over ROUNDS rounds after the first, divided by the
 * rounds, is its cost per round, and that over 60 s its share of one core at a round a
 * minute. Run twice: the target over plain HTTP, and over HTTPS (the default target,
 * the product's /api/health, is HTTPS, so the agent does a TLS handshake per entry). The
 * core client's CPU is printed apart, and the node's for the record.
 */
const entryCount = Number(process.env.ENTRIES ?? 50);
const roundCount = Number(process.env.ROUNDS ?? 12);
const intervalSeconds = Number(process.env.INTERVAL_SECONDS ?? 5);
const runtime = process.env.RUNTIME === "bun" ? "bun" : "node";
const budgetShare = 0.02;
const scheduleSeconds = 60;

requireV2ray();
requireCommand("openssl", "apt-get install -y openssl");
const v2ray = requireV2ray();
const directory = mkdtempSync(join(tmpdir(), "kannt-probe-cost-"));
const cleanups: (() => Promise<unknown> | unknown)[] = [];
const credential = randomUUID();
const probeKey = "probe_bench-key";

/** A certificate for 127.0.0.1 that the agent is told to trust (NODE_EXTRA_CA_CERTS), as it trusts the product's. */
function selfSignedCertificate() {
  const key = join(directory, "target.key");
  const cert = join(directory, "target.crt");
  const made = Bun.spawnSync(
    [
      "openssl",
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-days",
      "2",
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1",
      "-keyout",
      key,
      "-out",
      cert,
    ],
    { stdout: "pipe", stderr: "pipe" },
  );
  if (made.exitCode !== 0) throw new Error(`openssl failed: ${made.stderr.toString()}`);
  return { key: readFileSync(key, "utf8"), cert: readFileSync(cert, "utf8"), certPath: cert };
}

async function startNode() {
  const ports: number[] = [];
  for (let index = 0; index < entryCount; index++) ports.push(await freePort());
  const inbounds = ports.map((port, index) =>
    index % 2 === 0
      ? {
          tag: `vless-${index}`,
          listen: "127.0.0.1",
          port,
          protocol: "vless",
          settings: { clients: [{ id: credential, email: "probe" }], decryption: "none" },
          streamSettings: { network: "tcp" },
        }
      : {
          tag: `vmess-${index}`,
          listen: "127.0.0.1",
          port,
          protocol: "vmess",
          settings: { clients: [{ id: credential, alterId: 0, email: "probe" }] },
          streamSettings: { network: "tcp" },
        },
  );
  const config = {
    log: { loglevel: "warning" },
    inbounds,
    outbounds: [{ tag: "direct", protocol: "freedom" }],
  };
  const { process: node } = await startV2ray(directory, "node", config, ports.at(-1) ?? 0);
  cleanups.push(() => node.stop());
  const entries: ProbeEntry[] = ports.map((port, index) => ({
    id: index + 1,
    name: `bench entry ${index + 1}`,
    address: "127.0.0.1",
    inbound: {
      tag: inbounds[index]?.tag ?? "",
      protocol: index % 2 === 0 ? "vless" : "vmess",
      port,
      network: "tcp",
      security: "none",
    },
  }));
  return { node, entries };
}

async function until(what: string, limitMs: number, condition: () => boolean) {
  const startedAt = performance.now();
  while (!condition()) {
    if (performance.now() - startedAt > limitMs) throw new Error(`gave up waiting for ${what}`);
    await Bun.sleep(50);
  }
}

type Measured = {
  label: string;
  agentCpuPerRound: number;
  coreCpuPerRound: number;
  nodeCpuPerRound: number;
  secondsPerRound: number;
  failures: number;
  latencyMedianMs: number;
};

async function measure(
  label: string,
  target: string,
  entries: ProbeEntry[],
  nodePid: number,
  extraEnvironment: Record<string, string> = {},
): Promise<Measured> {
  const product = new FakeProbeApi(probeKey, credential);
  product.entries = entries;
  const productPort = product.start();
  const environment = {
    AGENT_MODE: "probe",
    KANNT_URL: `http://127.0.0.1:${productPort}`,
    PROBE_KEY: probeKey,
    CORE: "v2ray",
    CORE_BIN: v2ray,
    PROBE_TARGET: target,
    PROBE_INTERVAL_SECONDS: String(intervalSeconds),
    AGENT_STATE: join(directory, `${label}-state.json`),
    ...extraEnvironment,
  };
  const agent: CapturedProcess =
    runtime === "bun"
      ? spawnCapturedCommand(["bun", "agent/main.ts"], environment)
      : spawnCapturedCommand([node22(), "agent/main.ts"], environment);
  const stop = async () => {
    if (agent.child.exitCode === null) agent.child.kill("SIGTERM");
    await agent.child.exited;
    product.stop();
  };
  try {
    const allUp = (index: number) => product.rounds[index]?.every((result) => result.ok) === true;
    // The first round starts the agent and its core: not part of the steady cost.
    await until(`the first round with all ${entries.length} entries up`, 120_000, () => {
      if (agent.child.exitCode !== null) throw new Error(`the agent exited: ${agent.stderr()}`);
      return product.rounds.length >= 1;
    });
    if (!allUp(0))
      throw new Error(`not every entry was up: ${JSON.stringify(product.rounds[0])}\n${agent.stdout()}`);
    const corePid = Number([...agent.stdout().matchAll(/"pid":(\d+)/g)].at(-1)?.[1]);
    const from = product.rounds.length;
    const before = {
      at: performance.now(),
      agent: cpuSecondsOf(agent.child.pid),
      core: cpuSecondsOf(corePid),
      node: cpuSecondsOf(nodePid),
    };
    await until(`${roundCount} more rounds`, (roundCount * intervalSeconds + 120) * 1000, () => {
      if (agent.child.exitCode !== null) throw new Error(`the agent exited: ${agent.stderr()}`);
      return product.rounds.length >= from + roundCount;
    });
    const rounds = product.rounds.length - from;
    const after = {
      at: performance.now(),
      agent: cpuSecondsOf(agent.child.pid),
      core: cpuSecondsOf(corePid),
      node: cpuSecondsOf(nodePid),
    };
    const measuredResults = product.rounds.slice(from).flat();
    const latencies = measuredResults.flatMap((result) => (result.ok ? [result.latencyMs ?? 0] : []));
    const restarts = agent.stdout().match(/the probe's core runs as the client/g)?.length ?? 0;
    if (restarts !== 1) throw new Error(`the core client was started ${restarts} times, not once`);
    return {
      label,
      agentCpuPerRound: (after.agent - before.agent) / rounds,
      coreCpuPerRound: (after.core - before.core) / rounds,
      nodeCpuPerRound: (after.node - before.node) / rounds,
      secondsPerRound: (after.at - before.at) / 1000 / rounds,
      failures: measuredResults.filter((result) => !result.ok).length,
      latencyMedianMs: median(latencies),
    };
  } finally {
    await stop();
  }
}

const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");
const percent = (share: number) => `${(share * 100).toFixed(2)}%`;
const milliseconds = (seconds: number) => `${(seconds * 1000).toFixed(0)} ms`;

let exitCode = 0;
try {
  console.log(`load average before: ${load()} (${navigator.hardwareConcurrency} cores)`);
  console.log(
    `${entryCount} entries on one V2Ray node, the probe agent on ${runtime === "bun" ? "Bun" : "Node 22"} with V2Ray 4 as its client, a round every ${intervalSeconds} s, ${roundCount} rounds measured after the first`,
  );
  const { node, entries } = await startNode();
  const httpTarget = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: () => Response.json({ status: "ok" }),
  });
  cleanups.push(() => httpTarget.stop(true));
  const certificate = selfSignedCertificate();
  const httpsTarget = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    tls: { key: certificate.key, cert: certificate.cert },
    fetch: () => Response.json({ status: "ok" }),
  });
  cleanups.push(() => httpsTarget.stop(true));

  const results = [
    await measure("http", `http://127.0.0.1:${httpTarget.port}/api/health`, entries, node.child.pid),
    await measure("https", `https://127.0.0.1:${httpsTarget.port}/api/health`, entries, node.child.pid, {
      NODE_EXTRA_CA_CERTS: certificate.certPath,
    }),
  ];
  console.log(`load average after: ${load()}\n`);
  console.log(
    "| target | agent CPU per round | agent, one round a minute | budget | | core client CPU per round (a minute) | node CPU per round | failures | latency p50 |",
  );
  console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
  for (const result of results) {
    const share = result.agentCpuPerRound / scheduleSeconds;
    const isMet = share <= budgetShare && result.failures === 0;
    if (!isMet) exitCode = 1;
    console.log(
      `| ${result.label} | ${milliseconds(result.agentCpuPerRound)} | ${percent(share)} of one core | ≤ ${percent(budgetShare)} | ${isMet ? "met" : "**not met**"} | ${milliseconds(result.coreCpuPerRound)} (${percent(result.coreCpuPerRound / scheduleSeconds)}) | ${milliseconds(result.nodeCpuPerRound)} | ${result.failures} | ${result.latencyMedianMs.toFixed(0)} ms |`,
    );
  }
  console.log(
    `\n(each round took ${results.map((result) => `${result.secondsPerRound.toFixed(2)} s`).join(" and ")} of wall time at a round every ${intervalSeconds} s; CPU from /proc at 10 ms resolution)`,
  );
} catch (error) {
  console.error((error as Error).message);
  exitCode = 1;
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup();
  rmSync(directory, { recursive: true, force: true });
}
process.exit(exitCode);
