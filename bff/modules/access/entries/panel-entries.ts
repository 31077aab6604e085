import type { Database } from "../../../../db/database";
import { connectionRates, type EntrySettings, nodeEntries } from "../../../../db/queries/entries";
import { vpnNodes } from "../../../../db/queries/nodes";
import { entryChecks, type NamedCheckRow } from "../../../../db/queries/probes";
import { AppError } from "../../../platform/errors";
import { type Actor, recordAction } from "../../operators/accounts";
import { type EntryInput, entrySettings } from "./entry-rules";
import { type EntryView, entryView } from "./entry-view";

/** How far back the panel reads a node's connection success rate. */
const connectionWindowMs = 60 * 60_000;

/** Every entry in the operator's order, with its state, each probe's verdict and its node's connection success. */
export async function listEntries(database: Database, wallNow = Date.now()): Promise<EntryView[]> {
  const [rows, nodes, checks, rates] = await Promise.all([
    nodeEntries.list(database),
    nodeEntries.nodeStates(database),
    entryChecks.all(database),
    connectionRates.since(database, wallNow - connectionWindowMs),
  ]);
  const nodeById = new Map(nodes.map((node) => [Number(node.id), node]));
  const checksByEntry = new Map<number, NamedCheckRow[]>();
  for (const check of checks) {
    const list = checksByEntry.get(Number(check.entry_id)) ?? [];
    list.push(check);
    checksByEntry.set(Number(check.entry_id), list);
  }
  const rateByNode = new Map(rates.map((rate) => [rate.server_name, rate]));
  return rows.map((row) => {
    const node = nodeById.get(Number(row.node_id));
    return entryView(
      {
        row,
        node: node && { ...node, disabled: node.disabled_at !== null },
        checks: checksByEntry.get(Number(row.id)) ?? [],
        connections: rateByNode.get(row.node_name),
      },
      wallNow,
    );
  });
}

async function viewOf(database: Database, id: number): Promise<EntryView> {
  const view = (await listEntries(database)).find((entry) => entry.id === id);
  if (!view) throw new AppError("entry_not_found");
  return view;
}

const record = (database: Database, action: string, details: unknown, now: number, actor: Actor) =>
  recordAction(database, actor, action, details, now);

/** The settings an audit entry keeps: what was asked, as stored. */
const changed = (settings: EntrySettings) => ({ ...settings });

/** A new entry for a node's inbound, last in the order; its settings, where given, over the inbound's. */
export async function addEntry(
  database: Database,
  input: EntryInput & { nodeId: number; inboundTag: string },
  now: number,
  actor: Actor,
): Promise<EntryView> {
  const settings = entrySettings(input);
  const id = await database.transaction(async () => {
    const node = await vpnNodes.nameOf(database, input.nodeId);
    if (!node) throw new AppError("node_not_found");
    const created = await nodeEntries.insert(
      database,
      input.nodeId,
      input.inboundTag,
      await nodeEntries.nextPosition(database),
      now,
    );
    if (!created) throw new Error("the new entry vanished");
    if (Object.keys(settings).length > 0) await nodeEntries.update(database, [created.id], settings, now);
    await record(
      database,
      "entry.create",
      { id: created.id, node: node.name, inbound: input.inboundTag, ...changed(settings) },
      now,
      actor,
    );
    return Number(created.id);
  });
  return viewOf(database, id);
}

/** Changes one entry; what the input leaves out stays, null gives a setting back to the inbound. */
export async function editEntry(
  database: Database,
  id: number,
  input: EntryInput,
  now: number,
  actor: Actor,
): Promise<EntryView> {
  const settings = entrySettings(input);
  await database.transaction(async () => {
    const entry = await nodeEntries.byId(database, id);
    if (!entry) throw new AppError("entry_not_found");
    if (Object.keys(settings).length === 0) return;
    await nodeEntries.update(database, [id], settings, now);
    await record(database, "entry.update", { id, node: entry.node_name, ...changed(settings) }, now, actor);
  });
  return viewOf(database, id);
}

/** A filter over what entries dial, for changing many at once ("every REALITY entry on chrome"). */
export type EntryFilter = {
  security?: string;
  fingerprint?: string;
  protocol?: string;
  network?: string;
  nodeId?: number;
  tag?: string;
};

const matches = (entry: EntryView, filter: EntryFilter) =>
  (filter.security === undefined || entry.dialed?.security === filter.security) &&
  (filter.fingerprint === undefined || (entry.dialed?.fingerprint ?? "") === filter.fingerprint) &&
  (filter.protocol === undefined || entry.dialed?.protocol === filter.protocol) &&
  (filter.network === undefined || entry.dialed?.network === filter.network) &&
  (filter.nodeId === undefined || entry.nodeId === filter.nodeId) &&
  (filter.tag === undefined || entry.tags.includes(filter.tag));

/**
 * One change to many entries in one transaction and one audit entry: the entries named by
 * id, or every entry the filter matches now. Answers the entries changed.
 */
export async function changeEntries(
  database: Database,
  selection: { ids?: number[]; where?: EntryFilter },
  input: EntryInput,
  now: number,
  actor: Actor,
): Promise<EntryView[]> {
  const settings = entrySettings(input);
  if (Object.keys(settings).length === 0) throw new AppError("invalid_entry", { field: "changes" });
  const ids = await database.transaction(async () => {
    let chosen: number[];
    if (selection.ids !== undefined) {
      const found = new Set(
        (await nodeEntries.existing(database, selection.ids)).map((row) => Number(row.id)),
      );
      if (selection.ids.some((id) => !found.has(id))) throw new AppError("entry_not_found");
      chosen = [...found];
    } else {
      const where = selection.where ?? {};
      chosen = (await listEntries(database))
        .filter((entry) => matches(entry, where))
        .map((entry) => entry.id);
    }
    if (chosen.length === 0) return chosen;
    await nodeEntries.update(database, chosen, settings, now);
    await record(
      database,
      "entry.bulk-update",
      { ids: chosen, ...(selection.where ? { where: selection.where } : {}), ...changed(settings) },
      now,
      actor,
    );
    return chosen;
  });
  const wanted = new Set(ids);
  return (await listEntries(database)).filter((entry) => wanted.has(entry.id));
}

/** The operator's order: `ids` names every entry once, first to last. */
export async function reorderEntries(
  database: Database,
  ids: readonly number[],
  now: number,
  actor: Actor,
): Promise<EntryView[]> {
  await database.transaction(async () => {
    const all = (await nodeEntries.list(database)).map((row) => Number(row.id));
    const named = new Set(ids);
    if (named.size !== ids.length || all.length !== ids.length || all.some((id) => !named.has(id)))
      throw new AppError("entry_order_incomplete");
    for (const [index, id] of ids.entries()) await nodeEntries.setPosition(database, id, index + 1);
    await record(database, "entry.reorder", { ids }, now, actor);
  });
  return listEntries(database);
}
