import type { CoreKind } from "../core-messages.ts";
import {
  coreOf,
  type Environment,
  problemCollector,
  productUrlOf,
  required,
  SettingsError,
} from "../settings.ts";

/** A probe agent's whole configuration (`AGENT_MODE=probe`, DESIGN §8): environment variables only. */
export type ProbeSettings = {
  /** The product's origin, without a trailing slash. */
  productUrl: string;
  probeKey: string;
  core: CoreKind;
  /** The core binary run as the client of every entry. */
  coreBinary: string;
  /** What is fetched through each entry: a small known answer. */
  target: string;
  intervalSeconds: number;
  statePath: string;
};

const defaultIntervalSeconds = 60;

function probeKeyOf(environment: Environment): string {
  const probeKey = required(
    environment,
    "PROBE_KEY",
    "make one with `npm run operator -- probe <name>` (or in the panel)",
  );
  if (/\s/.test(probeKey))
    throw new SettingsError("PROBE_KEY holds whitespace: paste the key exactly as printed.");
  return probeKey;
}

function targetOf(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new SettingsError(
      `PROBE_TARGET is not a URL (got "${value}"): set what to fetch through each entry, e.g. https://kannt.example/api/health.`,
    );
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw new SettingsError(`PROBE_TARGET must be an http(s) URL (got "${value}").`);
  return url.href;
}

function intervalOf(value: string | undefined): number {
  if (value === undefined || value.trim() === "") return defaultIntervalSeconds;
  const seconds = Number(value);
  if (!/^\d+$/.test(value.trim()) || seconds < 1 || seconds > 3600)
    throw new SettingsError(
      `PROBE_INTERVAL_SECONDS must be a whole number of seconds from 1 to 3600 (got "${value}"); the default is ${defaultIntervalSeconds}.`,
    );
  return seconds;
}

/** Every problem at once, one per line, as the node agent's settings. */
export function readProbeSettings(environment: Environment): ProbeSettings {
  const { read, done } = problemCollector();
  const productUrl = read(() =>
    productUrlOf(required(environment, "KANNT_URL", "set the product's origin, e.g. https://kannt.example")),
  );
  const explicitTarget = environment.PROBE_TARGET?.trim();
  const settings: ProbeSettings = {
    productUrl,
    probeKey: read(() => probeKeyOf(environment)),
    core: read(() =>
      coreOf(required(environment, "CORE", "say which core the probe runs as its client, xray or v2ray")),
    ),
    coreBinary: read(() =>
      required(environment, "CORE_BIN", "set the path of the core binary, e.g. /usr/local/bin/xray"),
    ),
    target: read(() =>
      explicitTarget ? targetOf(explicitTarget) : productUrl && `${productUrl}/api/health`,
    ),
    intervalSeconds: read(() => intervalOf(environment.PROBE_INTERVAL_SECONDS)),
    statePath: read(() =>
      required(environment, "AGENT_STATE", "set a file the probe may keep its instance name in"),
    ),
  };
  done();
  return settings;
}
