/**
 * The probe agent (`AGENT_MODE=probe`, DESIGN §8): the node agent's program placed where
 * customers are, dialing every published entry through a core of its own and reporting
 * what got through. Configured by environment only; see docs/operators/nodes.md.
 */
import { versionFromOutput } from "../core-version.ts";
import { consoleLogger, throttledLogger } from "../log.ts";
import { runCommand } from "../run-command.ts";
import { type Environment, SettingsError } from "../settings.ts";
import { stopOnSignal } from "../stop-on-signal.ts";
import { ProbeRounds } from "./probe-rounds.ts";
import { type ProbeSettings, readProbeSettings } from "./probe-settings.ts";
import { probeInstanceId } from "./probe-state.ts";
import { probeProductApi } from "./product-api.ts";

/** CORE_BIN runs and says its version, or the probe stops now, naming it. */
async function coreBinaryVersion(settings: ProbeSettings, stop: (message: string) => never): Promise<string> {
  // V2Ray 4 takes `-version` (given `version` it waits for a config on stdin); Xray the `version` command.
  const command =
    settings.core === "xray" ? [settings.coreBinary, "version"] : [settings.coreBinary, "-version"];
  let output: string;
  try {
    output = await runCommand(command, 10_000);
  } catch (error) {
    stop(`CORE_BIN (${settings.coreBinary}) cannot be run: ${(error as Error).message}`);
  }
  const version = versionFromOutput(output);
  const major = Number(version.split(".")[0]);
  if (settings.core === "v2ray" && major !== 4)
    stop(
      `CORE_BIN (${settings.coreBinary}) is V2Ray ${version}: CORE=v2ray speaks V2Ray 4's JSON; run Xray with CORE=xray instead.`,
    );
  return version;
}

export async function runProbeAgent(
  environment: Environment,
  stop: (message: string) => never,
): Promise<void> {
  let settings: ProbeSettings;
  try {
    settings = readProbeSettings(environment);
  } catch (error) {
    if (error instanceof SettingsError) stop(error.message);
    throw error;
  }
  const coreVersion = await coreBinaryVersion(settings, stop);
  let instanceId: string;
  try {
    instanceId = await probeInstanceId(settings.statePath);
  } catch (error) {
    stop(`AGENT_STATE (${settings.statePath}) cannot be written: ${(error as Error).message}`);
  }
  const log = throttledLogger(consoleLogger);
  const rounds = new ProbeRounds({
    core: settings.core,
    coreBinary: settings.coreBinary,
    target: settings.target,
    intervalSeconds: settings.intervalSeconds,
    product: probeProductApi(settings.productUrl, settings.probeKey, instanceId),
    log,
  });

  stopOnSignal(log, () => rounds.stop());

  log("info", "kannt-agent started in probe mode", {
    core: `${settings.core} ${coreVersion}`,
    coreBinary: settings.coreBinary,
    target: settings.target,
    intervalSeconds: settings.intervalSeconds,
    product: settings.productUrl,
  });
  await rounds.run();
}
