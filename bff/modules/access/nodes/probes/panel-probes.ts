import type { Database } from "../../../../../db/database";
import { type ProbeRow, probes } from "../../../../../db/queries/probes";
import { AppError } from "../../../../platform/errors";
import type { Actor } from "../../../operators/accounts";
import type { probe } from "./panel-probes-model";
import { addProbe, rotateProbeKey, setProbeDisabled } from "./probe-keys";

/** A probe is reporting while heard from within this (wall clock): its default round is a minute. */
const reportingWithinMs = 5 * 60_000;

/** A probe as the panel shows it (panel-probes-model.ts). */
export type ProbeView = typeof probe.static;

function viewOf(row: ProbeRow, wallNow: number): ProbeView {
  const lastSeen = row.last_seen_at === null ? null : Number(row.last_seen_at);
  return {
    id: Number(row.id),
    name: row.name,
    reporting: row.disabled_at === null && lastSeen !== null && wallNow - lastSeen <= reportingWithinMs,
    lastSeenAt: lastSeen === null ? null : new Date(lastSeen).toISOString(),
    disabled: row.disabled_at !== null,
    createdAt: new Date(Number(row.created_at)).toISOString(),
  };
}

export async function listProbes(database: Database, wallNow = Date.now()): Promise<ProbeView[]> {
  return (await probes.list(database)).map((row) => viewOf(row, wallNow));
}

async function probeView(database: Database, id: number): Promise<ProbeView> {
  const row = await probes.byId(database, id);
  if (!row) throw new AppError("probe_not_found");
  return viewOf(row, Date.now());
}

/** The panel's add: the probe as listed, and its key once. */
export async function addProbeFromPanel(database: Database, name: string, now: number, actor: Actor) {
  const { id, key } = await addProbe(database, name, now, actor);
  return { success: true as const, probe: await probeView(database, id), key };
}

export async function rotateProbeKeyOf(database: Database, id: number, now: number, actor: Actor) {
  const key = await rotateProbeKey(database, id, now, actor);
  return { success: true as const, probe: await probeView(database, id), key };
}

export async function setProbeDisabledOf(
  database: Database,
  id: number,
  disabled: boolean,
  now: number,
  actor: Actor,
) {
  await setProbeDisabled(database, id, disabled, now, actor);
  return { success: true as const, probe: await probeView(database, id) };
}
