import type { Database } from "../../../../../db/database";
import { accessChanges } from "../../../../../db/queries/access-changes";
import { type ProbeRow, probes } from "../../../../../db/queries/probes";
import { AppError } from "../../../../platform/errors";
import { randomToken } from "../../../../platform/random";
import { type Actor, recordAction } from "../../../operators/accounts";
import { agentInstanceOf, agentSilenceMs } from "../node-agents";
import { bearerKeyOf, keyHashOf } from "../node-keys";

const newKey = () => `probe_${randomToken(24)}`;

const namePattern = /^[A-Za-z0-9._-]{1,64}$/;

const record = (database: Database, action: string, name: string, now: number, actor: Actor) =>
  recordAction(database, actor, action, { name }, now);

/**
 * A new probe and its key, shown once (`npm run operator -- probe <name>` or the panel). Its
 * credential goes on every node at once (a change that touches every allow-list), so it can
 * dial every entry without taking any customer's slot.
 */
export async function addProbe(
  database: Database,
  requestedName: string,
  now: number,
  actor: Actor,
): Promise<{ id: number; name: string; key: string }> {
  const name = requestedName.trim();
  if (!namePattern.test(name)) throw new AppError("invalid_probe_name");
  const key = newKey();
  return database.transaction(async () => {
    const taken = await probes.byNameAnyCase(database, name);
    if (taken) throw new AppError("probe_name_taken", { name: taken.name });
    const created = await probes.insert(
      database,
      {
        name,
        keyHash: keyHashOf(key),
        credential: crypto.randomUUID(),
        nodeTag: `kannt-probe-${randomToken(8)}`,
      },
      now,
    );
    if (!created) throw new Error("the new probe vanished");
    await accessChanges.everythingChanged(database);
    await record(database, "probe.create", name, now, actor);
    return { id: Number(created.id), name, key };
  });
}

/** A fresh key; the old one stops at once. */
export async function rotateProbeKey(
  database: Database,
  id: number,
  now: number,
  actor: Actor,
): Promise<string> {
  const key = newKey();
  return database.transaction(async () => {
    const probe = await probes.byId(database, id);
    if (!probe) throw new AppError("probe_not_found");
    await probes.replaceKeyHash(database, id, keyHashOf(key));
    await record(database, "probe.rotate-key", probe.name, now, actor);
    return key;
  });
}

/** Disabled: its key is refused and its credential leaves every node; enabled: both come back. */
export async function setProbeDisabled(
  database: Database,
  id: number,
  disabled: boolean,
  now: number,
  actor: Actor,
) {
  await database.transaction(async () => {
    const probe = await probes.byId(database, id);
    if (!probe) throw new AppError("probe_not_found");
    if ((probe.disabled_at !== null) === disabled) return;
    await probes.setDisabled(database, id, disabled ? now : null);
    await accessChanges.everythingChanged(database);
    await record(database, disabled ? "probe.disable" : "probe.enable", probe.name, now, actor);
  });
}

/**
 * The probe an `Authorization: Bearer {PROBE_KEY}` names, if enabled, and its one agent
 * (DESIGN §8's rule for node keys: another instance heard within 60 s is refused, 409).
 */
export async function authorizeProbeCall(
  database: Database,
  call: { authorization: string | null; instance: string | null },
  wallNow = Date.now(),
): Promise<ProbeRow> {
  const key = bearerKeyOf(call.authorization);
  if (!key) throw new AppError("probe_key_missing");
  const probe = await probes.byKeyHash(database, keyHashOf(key));
  if (!probe) throw new AppError("probe_key_unknown");
  if (probe.disabled_at !== null) throw new AppError("probe_disabled");
  const instance = agentInstanceOf(call.instance);
  const seenAt = probe.agent_seen_at === null ? null : Number(probe.agent_seen_at);
  if (
    probe.agent_instance !== null &&
    probe.agent_instance !== instance &&
    seenAt !== null &&
    wallNow - seenAt < agentSilenceMs
  )
    throw new AppError("probe_agent_conflict", {
      seconds: Math.max(0, Math.round((wallNow - seenAt) / 1000)),
    });
  await probes.noteSeen(database, probe.id, instance, wallNow);
  return probe;
}
