import { randomUUID } from "node:crypto";
import { open, readFile, rename } from "node:fs/promises";

const instanceIdPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * A probe agent's AGENT_STATE: only its name towards the product (`X-Agent-Instance`), so a
 * restarted probe is the same probe and a second machine on the same key is refused. The
 * file is written once, whole (temporary file + rename); one that cannot be read or is not
 * ours starts a new name. A folder the probe cannot write is an error at start.
 */
export async function probeInstanceId(statePath: string): Promise<string> {
  try {
    const saved = (JSON.parse(await readFile(statePath, "utf8")) as { instanceId?: unknown }).instanceId;
    if (typeof saved === "string" && instanceIdPattern.test(saved)) return saved;
  } catch {
    // None yet, or not ours: a new name, written below.
  }
  const instanceId = randomUUID();
  const temporary = `${statePath}.${process.pid}.tmp`;
  const file = await open(temporary, "w", 0o600);
  try {
    await file.writeFile(JSON.stringify({ instanceId }));
    await file.sync();
  } finally {
    await file.close();
  }
  await rename(temporary, statePath);
  return instanceId;
}
