import { randomUUID } from "node:crypto";
import { loadState } from "./state-file.ts";

/**
 * This agent's name towards the product (`X-Agent-Instance`): the one in AGENT_STATE, so a
 * restarted agent is the same agent, or a new one. A second machine started with the same
 * key has its own state file, hence its own name, and the product refuses it.
 */
export async function agentInstanceId(statePath: string): Promise<string> {
  try {
    return (await loadState(statePath))?.instanceId ?? randomUUID();
  } catch {
    // An unreadable state is reported when the list is loaded; the name starts afresh.
    return randomUUID();
  }
}
