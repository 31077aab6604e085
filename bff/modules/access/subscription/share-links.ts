import type { InboundReport } from "../../../../agent/contract/node-api";
import { dialedHost, hostInUrl, type ServerEntry } from "./server-entries";

/**
 * Share links, the body most client apps import (Happ, v2RayTun, v2rayNG, Streisand):
 * VLESS after Xray's share-link standard (XTLS/Xray-core discussion #716, which keeps
 * issue #91's VMessAEAD/VLESS proposal), VMess as v2rayN's `vmess://` + base64 JSON.
 * Every query value and the name are percent-encoded with encodeURIComponent, as the
 * standard asks (a space is %20, never "+", which iOS clients read as a plus).
 */

type Parameters = [string, string][];

const realityFingerprint = "chrome";

/** Vision runs only on raw TCP under TLS or REALITY; elsewhere the flow breaks the link. */
export function flowOf(inbound: InboundReport): string | undefined {
  if (inbound.protocol !== "vless" || !inbound.flow) return undefined;
  if (inbound.network !== "tcp" || inbound.security === "none") return undefined;
  return inbound.flow;
}

function transportParameters(inbound: InboundReport): Parameters {
  const parameters: Parameters = [];
  switch (inbound.network) {
    case "ws":
    case "httpupgrade":
    case "xhttp":
      parameters.push(["path", inbound.path ?? "/"]);
      if (inbound.hostHeader) parameters.push(["host", inbound.hostHeader]);
      // The report carries no XHTTP mode: the inbound runs Xray's default, which `auto` picks.
      if (inbound.network === "xhttp") parameters.push(["mode", "auto"]);
      break;
    case "grpc":
      if (inbound.serviceName) parameters.push(["serviceName", inbound.serviceName]);
      parameters.push(["mode", "gun"]);
      break;
    case "tcp":
      // Said outright: Mihomo reads a raw TCP link without it as HTTP header obfuscation.
      parameters.push(["headerType", "none"]);
      break;
  }
  return parameters;
}

function securityParameters(inbound: InboundReport): Parameters {
  const parameters: Parameters = [];
  if (inbound.security === "none") return parameters;
  if (inbound.sni) parameters.push(["sni", inbound.sni]);
  if (inbound.security === "tls") {
    if (inbound.alpn) parameters.push(["alpn", inbound.alpn.join(",")]);
    if (inbound.fingerprint) parameters.push(["fp", inbound.fingerprint]);
    return parameters;
  }
  parameters.push(["fp", inbound.fingerprint ?? realityFingerprint]);
  if (inbound.publicKey) parameters.push(["pbk", inbound.publicKey]);
  if (inbound.shortId) parameters.push(["sid", inbound.shortId]);
  if (inbound.spiderX) parameters.push(["spx", inbound.spiderX]);
  return parameters;
}

const queryOf = (parameters: Parameters) =>
  parameters.map(([key, value]) => `${key}=${encodeURIComponent(value)}`).join("&");

export function vlessLink(uuid: string, entry: ServerEntry): string {
  const { inbound } = entry;
  const parameters: Parameters = [
    ["type", inbound.network],
    ["security", inbound.security],
    ["encryption", "none"],
  ];
  const flow = flowOf(inbound);
  if (flow) parameters.push(["flow", flow]);
  parameters.push(...transportParameters(inbound), ...securityParameters(inbound));
  const authority = `${encodeURIComponent(uuid)}@${hostInUrl(dialedHost(entry.host))}:${inbound.port}`;
  return `vless://${authority}?${queryOf(parameters)}#${encodeURIComponent(entry.name)}`;
}

/** UTF-8 text as standard base64 (with padding), as subscriptions and vmess:// carry it. */
export const base64Of = (text: string) => Buffer.from(text, "utf8").toString("base64");

/** v2rayN's share format (version 2): every value a string, as v2rayN itself writes them. */
export function vmessLink(uuid: string, entry: ServerEntry): string {
  const { inbound } = entry;
  const isSecure = inbound.security !== "none";
  const payload: Record<string, string> = {
    v: "2",
    ps: entry.name,
    add: dialedHost(entry.host),
    port: String(inbound.port),
    id: uuid,
    aid: "0",
    scy: "auto",
    net: inbound.network,
    // v2rayN keeps the XHTTP mode in `type`; for the other transports it is the header type.
    type: inbound.network === "xhttp" ? "auto" : "none",
    host: inbound.hostHeader ?? "",
    path: (inbound.network === "grpc" ? inbound.serviceName : inbound.path) ?? "",
    tls: isSecure ? inbound.security : "",
    sni: isSecure ? (inbound.sni ?? "") : "",
    alpn: inbound.security === "tls" ? (inbound.alpn ?? []).join(",") : "",
    fp: isSecure ? (inbound.fingerprint ?? (inbound.security === "reality" ? realityFingerprint : "")) : "",
  };
  if (inbound.security === "reality") {
    payload.pbk = inbound.publicKey ?? "";
    payload.sid = inbound.shortId ?? "";
    if (inbound.spiderX) payload.spx = inbound.spiderX;
  }
  return `vmess://${base64Of(JSON.stringify(payload))}`;
}

export function shareLink(uuid: string, entry: ServerEntry): string {
  return entry.inbound.protocol === "vmess" ? vmessLink(uuid, entry) : vlessLink(uuid, entry);
}

/** The subscription body: standard base64 of the links, one a line. */
export function shareLinksBody(uuid: string, entries: readonly ServerEntry[]): string {
  return base64Of(entries.map((entry) => shareLink(uuid, entry)).join("\n"));
}
