import type { AllowListResponse } from "../../../../../agent/contract/node-api";
import type { Database } from "../../../../../db/database";
import type { Clock } from "../../../../platform/clock";
import { readAllowList } from "./allowlist-delta";
import type { ChangeWatcher } from "./change-watcher";

/**
 * `GET /api/nodes/allowlist?since&wait` (DESIGN §8): answers at once when there is
 * something to move to; otherwise waits up to `waitSeconds` for a change, so a change
 * reaches every waiting agent within the watcher's beat. While the cursor is held back by
 * a gap that may still fill, rows past it are answered after one beat, so an agent asking
 * again and again gets them a few times a second at most, not in a tight loop. After each
 * wait the node is checked again (`recheck`, which throws the refusal): a node disabled or
 * given a new key while its agent waited is refused (403, 401), not handed the list.
 */
export async function pollAllowList(
  database: Database,
  watcher: ChangeWatcher,
  clock: Clock,
  stopping: AbortSignal,
  request: { since: number; waitSeconds: number; recheck: () => Promise<unknown> },
): Promise<AllowListResponse> {
  const { since, waitSeconds, recheck } = request;
  const deadline = Date.now() + waitSeconds * 1000;
  let hasWaited = false;
  for (;;) {
    if (hasWaited) await recheck();
    const { answer, isPending } = await readAllowList(database, since, clock.now(), Date.now());
    const hasContent = answer.entries.length > 0 || answer.removed.length > 0;
    if (answer.version !== since || stopping.aborted || Date.now() >= deadline) return answer;
    if (hasWaited && hasContent) return answer;
    await watcher.wait(isPending || hasContent ? null : since, deadline);
    hasWaited = true;
  }
}
