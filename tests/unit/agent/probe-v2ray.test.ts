import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ProbeEntry, ProbeResult } from "../../../agent/contract/probe-api";
import { type CoreApi, connectCoreApi } from "../../../agent/core-api";
import { type CapturedProcess, spawnCapturedCommand } from "../../helpers/captured-process";
import { FakeProbeApi } from "../../helpers/fake-probe-api";
import { node22, outputOf, stopProcess, streamingTarget, until } from "../../helpers/real-core-rig";
import {
  freePort,
  type NodePorts,
  nodeConfig,
  requireV2ray,
  startV2ray,
  type V2rayProcess,
} from "../../helpers/v2ray-node";

/**
 * The probe agent (`AGENT_MODE=probe`, run by Node 22 as a probe machine runs it) with
 * Debian's V2Ray as its client core, against a real V2Ray node holding the probe's
 * credential on a VLESS and a VMess inbound, a fake product serving the entries and
 * recording the results, and a local HTTP target: both entries reported up; one made to
 * fail (its credential removed from the node, then its port closed) is reported down with
 * a reason while the other stays up, and comes back; an entry V2Ray cannot dial is
 * reported with why; a refusal is logged; the core client stops with the agent.
 */
const probeKey = "probe_agent-test-key";
const credential = randomUUID();
const marker = `probe-target-${randomUUID()}`;

let directory: string;
let target: ReturnType<typeof Bun.serve>;
let product: FakeProbeApi;
let nodePorts: NodePorts;
let node: V2rayProcess;
let nodeApi: CoreApi;
let probe: CapturedProcess | undefined;

const vlessEntry = (): ProbeEntry => ({
  id: 1,
  name: "loopback VLESS",
  address: "127.0.0.1",
  inbound: { tag: "kannt-vless", protocol: "vless", port: nodePorts.vless, network: "tcp", security: "none" },
});
const vmessEntry = (): ProbeEntry => ({
  id: 2,
  name: "loopback VMess",
  address: "127.0.0.1",
  inbound: { tag: "kannt-vmess", protocol: "vmess", port: nodePorts.vmess, network: "tcp", security: "none" },
});
const realityEntry: ProbeEntry = {
  id: 3,
  name: "REALITY somewhere",
  address: "127.0.0.1",
  inbound: {
    tag: "kannt-reality",
    protocol: "vless",
    port: 9,
    network: "tcp",
    security: "reality",
    flow: "xtls-rprx-vision",
    sni: "www.example.com",
    publicKey: "Z84J2IelR9ch3k8VtlVhhs5ycBUlXA7wHBWcBrjqnAw",
  },
};

const probeUser = (protocol: "vless" | "vmess") => ({
  email: "probe",
  level: 0,
  account: protocol === "vless" ? { protocol, id: credential, flow: "" } : { protocol, id: credential },
});

const probeLog = () => outputOf(probe);
/** Rounds reported since `from` (an index into product.rounds). */
const roundsSince = (from: number) => product.rounds.slice(from);
const resultOf = (round: ProbeResult[], entryId: number) =>
  round.find((result) => result.entryId === entryId);

/** Waits for a round, after `from`, that `accepts`; answers it. */
async function roundWhere(what: string, from: number, accepts: (round: ProbeResult[]) => boolean) {
  let found: ProbeResult[] | undefined;
  await until(
    what,
    () => {
      found = roundsSince(from).find(accepts);
      return found !== undefined;
    },
    { limitMs: 180_000, context: () => `${JSON.stringify(product.rounds.slice(-3))}\n${probeLog()}` },
  );
  return found as ProbeResult[];
}

beforeAll(async () => {
  const v2ray = requireV2ray();
  directory = mkdtempSync(join(tmpdir(), "kannt-probe-"));
  target = streamingTarget(marker);
  nodePorts = { api: await freePort(), vless: await freePort(), vmess: await freePort() };
  node = (
    await startV2ray(directory, "node", nodeConfig(nodePorts, join(directory, "access.log")), nodePorts.api)
  ).process;
  nodeApi = connectCoreApi("v2ray", `127.0.0.1:${nodePorts.api}`);
  await nodeApi.addUser("kannt-vless", probeUser("vless"));
  await nodeApi.addUser("kannt-vmess", probeUser("vmess"));
  product = new FakeProbeApi(probeKey, credential);
  product.entries = [vlessEntry(), vmessEntry(), realityEntry];
  const productPort = product.start();
  probe = spawnCapturedCommand([node22(), "agent/main.ts"], {
    AGENT_MODE: "probe",
    KANNT_URL: `http://127.0.0.1:${productPort}`,
    PROBE_KEY: probeKey,
    CORE: "v2ray",
    CORE_BIN: v2ray,
    PROBE_TARGET: `http://127.0.0.1:${target.port}/health`,
    PROBE_INTERVAL_SECONDS: "2",
    AGENT_STATE: join(directory, "probe-state.json"),
  });
});

afterAll(async () => {
  await stopProcess(probe);
  nodeApi?.close();
  await node?.stop();
  product?.stop();
  await target?.stop(true);
  rmSync(directory, { recursive: true, force: true });
});

describe("the probe agent with Debian's V2Ray as its client", () => {
  test("both entries are reported up, with a latency; the one V2Ray cannot dial is reported with why", async () => {
    const round = await roundWhere(
      "a round with both entries up",
      0,
      (results) => resultOf(results, 1)?.ok === true && resultOf(results, 2)?.ok === true,
    );
    for (const id of [1, 2]) expect(resultOf(round, id)?.latencyMs).toBeGreaterThanOrEqual(0);
    expect(resultOf(round, 3)).toEqual({
      entryId: 3,
      ok: false,
      error: "REALITY needs CORE=xray (V2Ray 4 has no REALITY)",
      unsupported: true,
    });
    expect(product.badBodies).toEqual([]);
    expect(product.instances.size).toBe(1);
    const state = JSON.parse(readFileSync(join(directory, "probe-state.json"), "utf8")) as {
      instanceId: string;
    };
    expect(product.instances.has(state.instanceId)).toBe(true);
    expect(probeLog()).not.toContain(credential);
  });

  test("the credential removed from the VMess inbound: that entry is reported down with a reason, the VLESS one stays up, and it comes back", async () => {
    await nodeApi.removeUser("kannt-vmess", "probe");
    const from = product.rounds.length;
    const down = await roundWhere(
      "a round with the VMess entry down",
      from,
      (results) => resultOf(results, 2)?.ok === false,
    );
    expect(resultOf(down, 2)?.error).toMatch(/nothing came back through the entry/);
    expect(resultOf(down, 1)).toMatchObject({ ok: true });
    await until("the log says the VMess entry went down", () => /"entry down".*"entryId":2/.test(probeLog()));

    await nodeApi.addUser("kannt-vmess", probeUser("vmess"));
    const back = product.rounds.length;
    const up = await roundWhere(
      "a round with the VMess entry up again",
      back,
      (results) => resultOf(results, 2)?.ok === true,
    );
    expect(resultOf(up, 1)).toMatchObject({ ok: true });
    await until("the log says it came back", () => /"entry up again".*"entryId":2/.test(probeLog()));
  });

  test("an entry pointed at a closed port is reported refused; the other stays up; restored, it comes back", async () => {
    const closedPort = await freePort();
    product.entries = [
      { ...vlessEntry(), inbound: { ...vlessEntry().inbound, port: closedPort } },
      vmessEntry(),
    ];
    const from = product.rounds.length;
    const down = await roundWhere(
      "a round with the VLESS entry refused",
      from,
      (results) => resultOf(results, 1)?.ok === false,
    );
    expect(resultOf(down, 1)?.error).toBe(`connection refused (127.0.0.1:${closedPort})`);
    expect(resultOf(down, 2)).toMatchObject({ ok: true });
    expect(resultOf(down, 3)).toBeUndefined();

    product.entries = [vlessEntry(), vmessEntry()];
    const back = product.rounds.length;
    await roundWhere(
      "a round with both entries up again",
      back,
      (results) => resultOf(results, 1)?.ok === true && resultOf(results, 2)?.ok === true,
    );
    // The core client was started once and restarted for each change of the entries, not each round.
    const starts = probeLog().match(/the probe's core runs as the client of the entries/g) ?? [];
    expect(starts.length).toBe(3);
  });

  test("a refusal of the probe key is logged once and probing goes on when it ends", async () => {
    product.refusal = { status: 401, code: "probe_key_unknown" };
    await until("the refusal is logged", () => probeLog().includes("the product refuses this probe"));
    const calls = product.refusedCalls.length;
    await until("the probe keeps asking", () => product.refusedCalls.length >= calls + 2);
    expect(probeLog().match(/the product refuses this probe/g)?.length).toBe(1);
    expect(probeLog()).toContain("check PROBE_KEY");

    product.refusal = undefined;
    const from = product.rounds.length;
    await roundWhere("results after the refusal", from, (results) => resultOf(results, 1)?.ok === true);
    expect(probeLog()).toContain("the product accepts this probe again");
  });

  test("a core client that dies is started again, and its death is not reported as the entries failing", async () => {
    const corePid = () => Number([...probeLog().matchAll(/"pid":(\d+)/g)].at(-1)?.[1]);
    const killed = corePid();
    const from = product.rounds.length;
    process.kill(killed, "SIGKILL");
    await until("a new core client", () => corePid() !== killed, { context: probeLog });
    expect(probeLog()).toContain("the probe's core had stopped; starting it again");
    await roundWhere("a round with both entries up after the restart", from, (results) =>
      [1, 2].every((id) => resultOf(results, id)?.ok === true),
    );
    const blamed = roundsSince(from)
      .flat()
      .filter((result) => result.error?.includes("does not listen"));
    expect(blamed).toEqual([]);
  });

  test("stopped, the agent stops its core client and removes its config (it holds the credential)", async () => {
    const pid = Number([...probeLog().matchAll(/"pid":(\d+)/g)].at(-1)?.[1]);
    expect(existsSync(`/proc/${pid}`)).toBe(true);
    const [, , configPath = ""] = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    expect(readFileSync(configPath, "utf8")).toContain(credential);
    await stopProcess(probe);
    expect(probe?.child.exitCode).toBe(0);
    const isGone = () =>
      !existsSync(`/proc/${pid}`) || readFileSync(`/proc/${pid}/stat`, "utf8").includes(") Z ");
    await until("the core client is gone", isGone);
    expect(existsSync(configPath)).toBe(false);
    probe = undefined;
  });
});
