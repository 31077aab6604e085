/**
 * The node agent (DESIGN §8), started with `npm run agent` beside the core on each VPN
 * server, configured by environment only; with `AGENT_MODE=probe`, a probe agent
 * (probe/probe-main.ts). See docs/operators/nodes.md.
 */
import { open, readFile, unlink } from "node:fs/promises";
import { accessLogProblem } from "./access-log-check.ts";
import { Agent } from "./agent.ts";
import { agentInstanceId } from "./agent-instance.ts";
import { connectCoreApi } from "./core-api.ts";
import { CoreConfigError, type CoreIdentity, managedInbounds } from "./core-config.ts";
import { coreVersion } from "./core-version.ts";
import { consoleLogger, throttledLogger } from "./log.ts";
import { runProbeAgent } from "./probe/probe-main.ts";
import { productApi } from "./product-api.ts";
import { readSettings, SettingsError } from "./settings.ts";
import { closeSockets, establishedEndpoints } from "./socket-closer.ts";
import { stopOnSignal } from "./stop-on-signal.ts";

function stop(message: string): never {
  for (const line of message.split("\n")) console.error(`kannt-agent: ${line}`);
  process.exit(1);
}

async function readCoreConfig(path: string, accessLogPath: string, identity: CoreIdentity) {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    stop(`CORE_CONFIG (${path}) cannot be read: ${(error as Error).message}`);
  }
  try {
    const inbounds = managedInbounds(text, identity);
    const problem = await accessLogProblem(accessLogPath, text);
    if (problem) stop(problem);
    return inbounds;
  } catch (error) {
    if (error instanceof CoreConfigError) stop(`CORE_CONFIG (${path}) ${error.message}`);
    throw error;
  }
}

/** The state is written after every change; a folder the agent cannot write is found now, not then. */
async function checkStateWritable(path: string): Promise<void> {
  const probe = `${path}.${process.pid}.probe`;
  try {
    await (await open(probe, "w", 0o600)).close();
    await unlink(probe);
  } catch (error) {
    stop(`AGENT_STATE (${path}) cannot be written: ${(error as Error).message}`);
  }
}

/** The node agent beside a VPN core: the default mode. */
async function runNodeAgent(): Promise<void> {
  let settings: ReturnType<typeof readSettings>;
  try {
    settings = readSettings(process.env);
  } catch (error) {
    if (error instanceof SettingsError) stop(error.message);
    throw error;
  }

  // The version first: on Xray 26.7.11 and later a REALITY inbound without minClientVer has one.
  const installedCoreVersion = await coreVersion(settings.core);
  const inbounds = await readCoreConfig(settings.coreConfigPath, settings.accessLogPath, {
    core: settings.core,
    version: installedCoreVersion,
  });
  await checkStateWritable(settings.statePath);
  const log = throttledLogger(consoleLogger);
  const instanceId = await agentInstanceId(settings.statePath);

  const agent = new Agent({
    core: settings.core,
    coreVersion: installedCoreVersion,
    nodeHost: settings.nodeHost,
    inbounds,
    accessLogPath: settings.accessLogPath,
    statePath: settings.statePath,
    instanceId,
    coreApi: connectCoreApi(settings.core, settings.coreApi),
    product: productApi(settings.productUrl, settings.nodeKey, instanceId),
    sockets: { close: closeSockets, established: establishedEndpoints },
    log,
  });

  stopOnSignal(log, () => agent.stop());

  log("info", "kannt-agent started", {
    core: settings.core,
    coreApi: settings.coreApi,
    inbounds: inbounds.map(
      (inbound) =>
        `${inbound.tag} (${inbound.protocol}/${inbound.network}/${inbound.security}:${inbound.port})`,
    ),
    product: settings.productUrl,
  });
  await agent.start();
}

// One program, two jobs (DESIGN §8): beside a node's core, or as a probe where customers are.
const mode = process.env.AGENT_MODE?.trim() || "node";
if (mode === "probe") await runProbeAgent(process.env, stop);
else if (mode === "node") await runNodeAgent();
else stop(`AGENT_MODE must be node (the default) or probe (got "${mode}").`);
