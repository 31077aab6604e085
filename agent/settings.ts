import type { CoreKind } from "./core-messages.ts";

/** The agent's whole configuration: environment variables only (DESIGN §8). */
export type AgentSettings = {
  /** The product's origin, without a trailing slash. */
  productUrl: string;
  nodeKey: string;
  nodeHost: string;
  core: CoreKind;
  /** host:port of the core's gRPC API. */
  coreApi: string;
  coreConfigPath: string;
  accessLogPath: string;
  statePath: string;
};

export class SettingsError extends Error {}

export type Environment = Record<string, string | undefined>;

export function required(environment: Environment, name: string, meaning: string): string {
  const value = environment[name]?.trim();
  if (!value) throw new SettingsError(`${name} is not set: ${meaning}.`);
  return value;
}

export function productUrlOf(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new SettingsError(
      `KANNT_URL is not a URL (got "${value}"): set the product's origin, e.g. https://kannt.example.`,
    );
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw new SettingsError(`KANNT_URL must be an http(s) origin (got "${value}").`);
  return url.origin;
}

function hostOf(value: string): string {
  // What client apps dial: a name or an address, nothing around it (the links add the port).
  if (!/^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\]|[0-9A-Fa-f:.]+)$/.test(value) || value.includes("/"))
    throw new SettingsError(
      `NODE_HOST must be a host name or IP address client apps can reach, without scheme or port (got "${value}").`,
    );
  return value;
}

function apiAddressOf(value: string): string {
  const match = /^(.+):(\d{1,5})$/.exec(value);
  const port = Number(match?.[2]);
  if (!match || port < 1 || port > 65535)
    throw new SettingsError(
      `CORE_API must be host:port of the core's gRPC API, e.g. 127.0.0.1:10085 (got "${value}").`,
    );
  return value;
}

/**
 * Every problem at once, one per line: fixing a unit file one restart at a time is slow.
 * `read` parses one variable and notes its problem instead of stopping; `done` throws them all.
 */
export function problemCollector() {
  const problems: string[] = [];
  return {
    read<Value>(parse: () => Value): Value {
      try {
        return parse();
      } catch (error) {
        if (!(error instanceof SettingsError)) throw error;
        problems.push(error.message);
        return undefined as Value;
      }
    },
    done(): void {
      if (problems.length > 0) throw new SettingsError(problems.join("\n"));
    },
  };
}

export function readSettings(environment: Environment): AgentSettings {
  const { read, done } = problemCollector();
  const settings: AgentSettings = {
    productUrl: read(() =>
      productUrlOf(
        required(environment, "KANNT_URL", "set the product's origin, e.g. https://kannt.example"),
      ),
    ),
    nodeKey: read(() => nodeKeyOf(environment)),
    nodeHost: read(() =>
      hostOf(required(environment, "NODE_HOST", "set the address client apps dial to reach this node")),
    ),
    core: read(() =>
      coreOf(required(environment, "CORE", "say which core runs beside the agent, xray or v2ray")),
    ),
    coreApi: read(() => apiAddressOf(environment.CORE_API?.trim() || "127.0.0.1:10085")),
    coreConfigPath: read(() =>
      required(environment, "CORE_CONFIG", "set the path of the core's JSON config"),
    ),
    accessLogPath: read(() =>
      required(environment, "CORE_ACCESS_LOG", "set the path of the core's access log (its log.access)"),
    ),
    statePath: read(() =>
      required(environment, "AGENT_STATE", "set a file the agent may write its last allow-list to"),
    ),
  };
  done();
  return settings;
}

export function coreOf(value: string): CoreKind {
  if (value !== "xray" && value !== "v2ray")
    throw new SettingsError(`CORE must be xray or v2ray (got "${value}").`);
  return value;
}

function nodeKeyOf(environment: Environment): string {
  const nodeKey = required(
    environment,
    "NODE_KEY",
    "make one with `npm run operator -- node <name>` (or in the panel's Nodes screen)",
  );
  if (/\s/.test(nodeKey))
    throw new SettingsError("NODE_KEY holds whitespace: paste the key exactly as printed.");
  return nodeKey;
}
