import type { InboundReport } from "../../../../agent/contract/node-api";
import { isoTime } from "../../../../core/date-time";
import type { EntryRow, PublishedEntryRow } from "../../../../db/queries/entries";
import type { NamedCheckRow } from "../../../../db/queries/probes";
import { parseInbounds } from "../subscription/server-entries";
import { isFresh, nodeFailure } from "./entry-health";
import { listOf, realityWarning, tariffsOf } from "./entry-rules";
import type { EntryOut, EntryView } from "./panel-entries-model";
import { entryInbound } from "./published-entries";

// The view is typed by the panel's answer schema; its readers name it from here.
export type { EntryView };

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
