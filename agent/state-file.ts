import { open, readFile, rename, unlink } from "node:fs/promises";
import type { AllowedCredential } from "./allow-list.ts";
import type { Refusal } from "./refusal.ts";

/**
 * AGENT_STATE: the last allow-list, so an agent restarted while the product is down puts
 * paying customers back on the core at once. It holds credentials, so it is readable by
 * root only, and it is replaced whole (temporary file + rename): a crash mid-write leaves
 * the previous list, never half of one.
 */
export type SavedState = {
  version: number;
  entries: [string, AllowedCredential][];
  /** Credentials the core may still hold though the list dropped them (a removal it had not taken yet). */
  leftovers?: [string, string][];
  /** This agent's name towards the product (`X-Agent-Instance`), the same across restarts. */
  instanceId?: string;
  /** The product refuses this node since then: a restart does not start the grace again. */
  refusal?: Refusal;
};

export class StateFileError extends Error {}

export async function saveState(path: string, state: SavedState): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  const file = await open(temporary, "w", 0o600);
  try {
    await file.writeFile(JSON.stringify(state));
    // On disk before the rename, or a power cut could leave the new name on an empty file.
    await file.sync();
  } finally {
    await file.close();
  }
  try {
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}

const isCredential = (value: unknown): value is AllowedCredential =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as AllowedCredential).id === "string" &&
  Number.isFinite((value as AllowedCredential).expiresAt);

/** The saved state, or undefined when there is none yet (first start). */
export async function loadState(path: string): Promise<SavedState | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new StateFileError(`cannot read it: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new StateFileError("it is not the JSON the agent writes");
  }
  const { version, entries, leftovers, instanceId, refusal } = (parsed ?? {}) as Record<string, unknown>;
  const isPair = (item: unknown) =>
    Array.isArray(item) && typeof item[0] === "string" && typeof item[1] === "string";
  if (
    typeof version !== "number" ||
    !Array.isArray(entries) ||
    !entries.every((item) => Array.isArray(item) && typeof item[0] === "string" && isCredential(item[1])) ||
    (leftovers !== undefined && !(Array.isArray(leftovers) && leftovers.every(isPair)))
  )
    throw new StateFileError("it is not the JSON the agent writes");
  return {
    version,
    entries: entries as SavedState["entries"],
    leftovers: (leftovers ?? []) as [string, string][],
    instanceId: typeof instanceId === "string" && instanceIdPattern.test(instanceId) ? instanceId : undefined,
    refusal: isRefusal(refusal) ? refusal : undefined,
  };
}

const instanceIdPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const isRefusal = (value: unknown): value is Refusal =>
  typeof value === "object" &&
  value !== null &&
  ["disabled", "key", "conflict"].includes((value as Refusal).kind) &&
  Number.isFinite((value as Refusal).since);
