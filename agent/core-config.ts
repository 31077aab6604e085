import type { InboundNetwork, InboundReport, InboundSecurity } from "./contract/node-api.ts";
import type { CoreKind } from "./core-messages.ts";
import { stripJsonComments } from "./json-comments.ts";
import { realityPublicKey } from "./reality-key.ts";

/** Inbounds whose tag starts with this are the agent's (DESIGN §8); others are the operator's. */
export const managedTagPrefix = "kannt";

export class CoreConfigError extends Error {}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const objectAt = (value: unknown): Json => (isObject(value) ? value : {});

const textAt = (value: unknown): string | undefined =>
  typeof value === "string" && value !== "" ? value : undefined;

const textsAt = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];

/** Xray's newer names for the same transports. */
const networkAliases: Record<string, InboundNetwork> = {
  tcp: "tcp",
  raw: "tcp",
  ws: "ws",
  websocket: "ws",
  grpc: "grpc",
  gun: "grpc",
  xhttp: "xhttp",
  splithttp: "xhttp",
  httpupgrade: "httpupgrade",
};

function portOf(tag: string, value: unknown): number {
  const port = typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof port !== "number" || !Number.isInteger(port) || port < 1 || port > 65535)
    throw new CoreConfigError(
      `inbound ${tag}: port must be one number from 1 to 65535 (got ${JSON.stringify(value)})`,
    );
  return port;
}

function transportOf(
  tag: string,
  stream: Json,
): Pick<InboundReport, "network" | "path" | "hostHeader" | "serviceName"> {
  const given = textAt(stream.network) ?? "tcp";
  const network = networkAliases[given];
  if (!network)
    throw new CoreConfigError(
      `inbound ${tag}: network "${given}" is not one the links support (tcp, ws, grpc, xhttp, httpupgrade)`,
    );
  if (network === "grpc") return { network, serviceName: textAt(objectAt(stream.grpcSettings).serviceName) };
  if (network === "tcp") return { network };
  const settings = objectAt(
    network === "ws"
      ? stream.wsSettings
      : network === "httpupgrade"
        ? stream.httpupgradeSettings
        : (stream.xhttpSettings ?? stream.splithttpSettings),
  );
  return {
    network,
    path: textAt(settings.path),
    hostHeader: textAt(settings.host) ?? textAt(objectAt(settings.headers).Host),
  };
}

/** The core the config is for, when known: its version decides REALITY's default minClientVer. */
export type CoreIdentity = { core: CoreKind; version: string };

/**
 * The oldest REALITY client version the server lets in (DESIGN §8 "REALITY and client
 * versions"): the config's `realitySettings.minClientVer`, else, from Xray 26.7.11 on, the
 * default 26.3.27 that such a core applies by itself. Without the core's version (unknown,
 * or not given) only what the config says is reported.
 */
function minClientVersionOf(tag: string, reality: Json, identity: CoreIdentity | undefined) {
  const given = reality.minClientVer;
  if (given !== undefined && given !== "") {
    if (typeof given !== "string" || !/^[0-9]+(\.[0-9]+){0,2}$/.test(given))
      throw new CoreConfigError(
        `inbound ${tag}: realitySettings.minClientVer must be a version such as "1.8.0" (got ${JSON.stringify(given)})`,
      );
    return given;
  }
  if (identity?.core === "xray" && isAtLeast(identity.version, xrayDefaultingMinClientVer))
    return xrayDefaultMinClientVer;
  return undefined;
}

const xrayDefaultingMinClientVer = "26.7.11";
const xrayDefaultMinClientVer = "26.3.27";

/** Whether a dotted version is at least `floor` ("unknown" is not). */
function isAtLeast(version: string, floor: string): boolean {
  if (!/^\d+(\.\d+)*$/.test(version)) return false;
  const left = version.split(".").map(Number);
  const right = floor.split(".").map(Number);
  for (let index = 0; index < Math.max(left.length, right.length); index++) {
    const difference = (left[index] ?? 0) - (right[index] ?? 0);
    if (difference !== 0) return difference > 0;
  }
  return true;
}

function securityOf(
  tag: string,
  stream: Json,
  identity: CoreIdentity | undefined,
): Omit<InboundReport, "tag" | "protocol" | "port" | "network"> {
  const security = (textAt(stream.security) ?? "none") as InboundSecurity | string;
  if (security === "none") return { security };
  if (security === "tls") {
    const tls = objectAt(stream.tlsSettings);
    const alpn = textsAt(tls.alpn);
    return {
      security,
      sni: textAt(tls.serverName),
      fingerprint: textAt(tls.fingerprint),
      alpn: alpn.length > 0 ? alpn : undefined,
    };
  }
  if (security === "reality") {
    const reality = objectAt(stream.realitySettings);
    const privateKey = textAt(reality.privateKey);
    if (!privateKey) throw new CoreConfigError(`inbound ${tag}: realitySettings.privateKey is missing`);
    let publicKey: string;
    try {
      publicKey = realityPublicKey(privateKey);
    } catch (error) {
      throw new CoreConfigError(`inbound ${tag}: ${(error as Error).message}`);
    }
    return {
      security,
      sni: textsAt(reality.serverNames)[0],
      shortId: textsAt(reality.shortIds)[0],
      fingerprint: textAt(reality.fingerprint) ?? "chrome",
      spiderX: textAt(reality.spiderX),
      publicKey,
      minClientVer: minClientVersionOf(tag, reality, identity),
    };
  }
  throw new CoreConfigError(`inbound ${tag}: security "${security}" is not supported (none, tls, reality)`);
}

function flowOf(inbound: Json, report: Pick<InboundReport, "network" | "security">): string | undefined {
  const clients = objectAt(inbound.settings).clients;
  for (const client of Array.isArray(clients) ? clients : []) {
    const flow = textAt(objectAt(client).flow);
    if (flow) return flow;
  }
  // Vision is what REALITY over plain TCP is made for; clients without it are fingerprintable.
  return report.security === "reality" && report.network === "tcp" ? "xtls-rprx-vision" : undefined;
}

function reportOf(inbound: Json, tag: string, identity: CoreIdentity | undefined): InboundReport {
  const protocol = inbound.protocol;
  if (protocol !== "vless" && protocol !== "vmess")
    throw new CoreConfigError(
      `inbound ${tag}: protocol ${JSON.stringify(protocol)} is not managed (vless or vmess)`,
    );
  const stream = objectAt(inbound.streamSettings);
  const transport = transportOf(tag, stream);
  const security = securityOf(tag, stream, identity);
  const report: InboundReport = { tag, protocol, port: portOf(tag, inbound.port), ...transport, ...security };
  if (protocol === "vless") report.flow = flowOf(inbound, report);
  // Absent fields stay off the wire, as the reports' optional fields expect.
  return Object.fromEntries(
    Object.entries(report).filter(([, value]) => value !== undefined),
  ) as InboundReport;
}

/** The managed inbounds of a core config's text, as the node reports them. */
export function managedInbounds(text: string, identity?: CoreIdentity): InboundReport[] {
  let config: unknown;
  try {
    config = JSON.parse(stripJsonComments(text));
  } catch (error) {
    throw new CoreConfigError(`not valid JSON: ${(error as Error).message}`);
  }
  const inbounds = objectAt(config).inbounds;
  if (!Array.isArray(inbounds)) throw new CoreConfigError("has no inbounds list");
  const reports: InboundReport[] = [];
  for (const inbound of inbounds) {
    const tag = textAt(objectAt(inbound).tag);
    if (tag?.startsWith(managedTagPrefix)) reports.push(reportOf(objectAt(inbound), tag, identity));
  }
  if (reports.length === 0)
    throw new CoreConfigError(
      `has no inbound whose tag starts with "${managedTagPrefix}": the agent would manage nothing`,
    );
  return reports;
}

/** What the core's config says about its access log: where it goes, and whether addresses are masked. */
export function accessLogSettings(text: string): { access?: string; maskAddress?: string } {
  let config: unknown;
  try {
    config = JSON.parse(stripJsonComments(text));
  } catch (error) {
    throw new CoreConfigError(`not valid JSON: ${(error as Error).message}`);
  }
  const log = objectAt(objectAt(config).log);
  return { access: textAt(log.access), maskAddress: textAt(log.maskAddress) };
}
