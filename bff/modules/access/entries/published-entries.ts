import type { InboundReport } from "../../../../agent/contract/node-api";
import { company } from "../../../../core/company";
import type { Database } from "../../../../db/database";
import { type EntryRow, nodeEntries, type PublishedEntryRow } from "../../../../db/queries/entries";
import { entryChecks } from "../../../../db/queries/probes";
import { normalizeHost, parseInbounds, type ServerEntry } from "../subscription/server-entries";
import { entriesDown, nodeFailure } from "./entry-health";
import { listOf, tariffsOf } from "./entry-rules";

/** An entry as a client dials it: the address, and its inbound with the entry's own settings applied. */
export type DialedEntry = {
  id: number;
  nodeName: string;
  remark: string;
  address: string;
  inbound: InboundReport;
};

/** The inbound with the entry's settings over it: what the entry leaves unset is the inbound's. */
export function entryInbound(entry: EntryRow, inbound: InboundReport): InboundReport {
  const applied: InboundReport = { ...inbound };
  if (entry.port !== null) applied.port = Number(entry.port);
  if (entry.sni !== null) applied.sni = entry.sni;
  if (entry.fingerprint !== null) applied.fingerprint = entry.fingerprint;
  if (entry.alpn !== null) applied.alpn = listOf(entry.alpn);
  if (entry.path !== null) applied.path = entry.path;
  if (entry.host_header !== null) applied.hostHeader = entry.host_header;
  if (entry.service_name !== null) applied.serviceName = entry.service_name;
  return applied;
}

/**
 * Each row as a client would dial it, in the rows' order; a row whose inbound the node no
 * longer reports, or whose address is not one a client can dial, is left out.
 */
export function dialedEntries(rows: readonly PublishedEntryRow[]): DialedEntry[] {
  const inboundsByNode = new Map<number, InboundReport[]>();
  const dialed: DialedEntry[] = [];
  for (const row of rows) {
    let inbounds = inboundsByNode.get(Number(row.node_id));
    if (!inbounds) {
      inbounds = parseInbounds(row.inbounds);
      inboundsByNode.set(Number(row.node_id), inbounds);
    }
    const inbound = inbounds.find((item) => item.tag === row.inbound_tag);
    const address = normalizeHost(row.address ?? row.node_host);
    if (!inbound || !address) continue;
    dialed.push({
      id: Number(row.id),
      nodeName: row.node_name,
      remark: row.remark,
      address,
      inbound: entryInbound(row, inbound),
    });
  }
  return dialed;
}

/**
 * The rows as a subscription lists them, in their order. Names are unique (Clash and
 * sing-box refuse two proxies of one name): the entry's remark, or "Kannt · {node}", and
 * "… 2" for the second of one name.
 */
export function servedEntries(rows: readonly PublishedEntryRow[]): ServerEntry[] {
  const entries = dialedEntries(rows);
  const taken = new Set<string>();
  return entries.map((entry) => {
    const base = entry.remark || `${company.productName} · ${entry.nodeName}`;
    let name = base;
    for (let index = 2; taken.has(name); index++) name = `${base} ${index}`;
    taken.add(name);
    return { name, host: entry.address, inbound: entry.inbound };
  });
}

/**
 * What a subscription lists (DESIGN §8): the enabled entries of nodes that serve, in the
 * operator's order, for the customer's tariff, without those a probe found down.
 * `tariffMonths` undefined: no tariff (a placeholder answer), every audience.
 */
export async function publishedEntries(
  database: Database,
  tariffMonths: number | undefined,
  wallNow: number,
): Promise<ServerEntry[]> {
  const [rows, checks] = await Promise.all([nodeEntries.published(database), entryChecks.all(database)]);
  const down = entriesDown(checks, wallNow);
  const serving = rows.filter((row) => {
    if (down.has(Number(row.id)) || nodeFailure(row, wallNow) !== undefined) return false;
    const audience = tariffsOf(row.tariffs);
    return audience.length === 0 || tariffMonths === undefined || audience.includes(tariffMonths);
  });
  return servedEntries(serving);
}
