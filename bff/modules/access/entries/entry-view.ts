import type { InboundReport } from "../../../../agent/contract/node-api";
import { isoTime } from "../../../../core/date-time";
import type { EntryRow, PublishedEntryRow } from "../../../../db/queries/entries";
import type { NamedCheckRow } from "../../../../db/queries/probes";
import { parseInbounds } from "../subscription/server-entries";
import { isFresh, type NodeFailure, nodeFailure } from "./entry-health";
import { listOf, type RealityWarning, realityWarning, tariffsOf } from "./entry-rules";
import { entryInbound } from "./published-entries";

/** What one probe last decided of an entry. */
export type ProbeVerdict = {
  probe: string;
  up: boolean;
  since: string;
  checkedAt: string;
  latencyMs: number | null;
  lastError: string | null;
  lastErrorAt: string | null;
};

/** Why an entry is not in subscriptions now; null: it is. */
export type EntryOut = "switchedOff" | "nodeDisabled" | "inboundGone" | NodeFailure | "probeDown" | null;

/** An entry as the panel's Nodes screen shows it. */
export type EntryView = {
  id: number;
  nodeId: number;
  nodeName: string;
  inboundTag: string;
  position: number;
  enabled: boolean;
  /** The entry's own settings; null: the inbound's. */
  own: {
    address: string | null;
    port: number | null;
    sni: string | null;
    fingerprint: string | null;
    alpn: string[] | null;
    path: string | null;
    hostHeader: string | null;
    serviceName: string | null;
  };
  /** What clients dial, the inbound's settings with the entry's over them; null when the node no longer reports the inbound. */
  dialed: {
    address: string | null;
    protocol: InboundReport["protocol"];
    port: number;
    network: InboundReport["network"];
    security: InboundReport["security"];
    sni: string | null;
    fingerprint: string | null;
    alpn: string[];
  } | null;
  remark: string;
  tags: string[];
  /** Tariff months the entry is for; empty: everyone. */
  tariffs: number[];
  out: EntryOut;
  probes: ProbeVerdict[];
  /** The node's connection events of the last hour: how many, and the share that succeeded. */
  connections: { total: number; successRate: number } | null;
  warning: RealityWarning | null;
  updatedAt: string;
};

export type EntryViewInput = {
  row: EntryRow & { node_name: string };
  node:
    | (Pick<PublishedEntryRow, "node_host" | "inbounds" | "last_seen_at" | "core_state" | "pending_since"> & {
        disabled: boolean;
      })
    | undefined;
  checks: readonly NamedCheckRow[];
  connections: { total: number; succeeded: number } | undefined;
};

function outOf(input: EntryViewInput, inbound: InboundReport | undefined, wallNow: number): EntryOut {
  const { row, node, checks } = input;
  if (Number(row.enabled) !== 1) return "switchedOff";
  if (!node || node.disabled) return "nodeDisabled";
  const failure = nodeFailure(node, wallNow);
  if (failure) return failure;
  if (!inbound) return "inboundGone";
  if (checks.some((check) => Number(check.up) === 0 && isFresh(check, wallNow))) return "probeDown";
  return null;
}

export function entryView(input: EntryViewInput, wallNow: number): EntryView {
  const { row, node, checks } = input;
  const inbound = node
    ? parseInbounds(node.inbounds).find((item) => item.tag === row.inbound_tag)
    : undefined;
  const applied = inbound ? entryInbound(row, inbound) : undefined;
  const sni = applied?.sni ?? null;
  return {
    id: Number(row.id),
    nodeId: Number(row.node_id),
    nodeName: row.node_name,
    inboundTag: row.inbound_tag,
    position: Number(row.position),
    enabled: Number(row.enabled) === 1,
    own: {
      address: row.address,
      port: row.port === null ? null : Number(row.port),
      sni: row.sni,
      fingerprint: row.fingerprint,
      alpn: row.alpn === null ? null : listOf(row.alpn),
      path: row.path,
      hostHeader: row.host_header,
      serviceName: row.service_name,
    },
    dialed: applied
      ? {
          address: row.address ?? node?.node_host ?? null,
          protocol: applied.protocol,
          port: applied.port,
          network: applied.network,
          security: applied.security,
          sni,
          fingerprint: applied.fingerprint ?? null,
          alpn: applied.alpn ?? [],
        }
      : null,
    remark: row.remark,
    tags: listOf(row.tags),
    tariffs: tariffsOf(row.tariffs),
    out: outOf(input, inbound, wallNow),
    probes: checks
      .filter((check) => isFresh(check, wallNow))
      .map((check) => ({
        probe: check.probe_name,
        up: Number(check.up) === 1,
        since: isoTime(check.since),
        checkedAt: isoTime(check.checked_at),
        latencyMs: check.latency_ms === null ? null : Number(check.latency_ms),
        lastError: check.last_error,
        lastErrorAt: isoTime(check.last_error_at),
      })),
    connections:
      input.connections && Number(input.connections.total) > 0
        ? {
            total: Number(input.connections.total),
            successRate: Number(input.connections.succeeded) / Number(input.connections.total),
          }
        : null,
    warning: applied?.security === "reality" ? (realityWarning(sni ?? undefined) ?? null) : null,
    updatedAt: isoTime(row.updated_at),
  };
}
