import { AllowList } from "./allow-list.ts";
import type { AllowListResponse, InboundReport } from "./contract/node-api.ts";
import { type CoreApi, errorText } from "./core-api.ts";
import { CoreUsers } from "./core-users.ts";
import type { Logger } from "./log.ts";
import type { Refusal } from "./refusal.ts";
import { loadState, type SavedState, saveState } from "./state-file.ts";

export type AccessSyncOptions = {
  api: CoreApi;
  inbounds: InboundReport[];
  statePath: string;
  now: () => number;
  log: Logger;
  /** A credential left the core: its open connections must end (called as each one goes). */
  onRemoved: (tag: string) => void;
  /** Saved with the list: this agent's instance id, and the product's refusal if any. */
  identity: () => { instanceId: string; refusal?: Refusal };
};

/**
 * The allow-list, the core and AGENT_STATE kept in step: every answer from the product,
 * every expiry and every core restart goes through here.
 */
export class AccessSync {
  readonly allowList = new AllowList();
  readonly users: CoreUsers;
  /** The allow-list version the core holds in full (what the node reports). */
  appliedVersion = 0;
  private saving: Promise<void> | undefined;
  private isSaveWanted = false;

  private readonly options: AccessSyncOptions;

  constructor(options: AccessSyncOptions) {
    this.options = options;
    this.users = new CoreUsers(options.api, options.inbounds, this.allowList, options.onRemoved);
  }

  /**
   * Puts the saved list back on the core before the product is asked anything: paying
   * customers keep access across an agent restart even while the product is down.
   * Entries that ran out meanwhile, and removals the core had not taken, are removed.
   * Answers what was saved (the refusal in it is the caller's).
   */
  async load(): Promise<SavedState | undefined> {
    let saved: SavedState | undefined;
    try {
      saved = await loadState(this.options.statePath);
    } catch (error) {
      this.options.log("error", "AGENT_STATE unreadable; starting from the product's full list", {
        path: this.options.statePath,
        cause: (error as Error).message,
      });
    }
    const now = this.options.now();
    const current = (saved?.entries ?? []).filter(([, entry]) => entry.expiresAt > now);
    const gone = (saved?.entries ?? []).filter(([, entry]) => entry.expiresAt <= now);
    this.allowList.restore(saved?.version ?? 0, current);
    this.users.forgetCore([
      ...gone.map(([tag, entry]): [string, string] => [tag, entry.id]),
      ...(saved?.leftovers ?? []),
    ]);
    if (saved)
      this.options.log("info", "saved allow-list loaded", {
        version: saved.version,
        credentials: current.length,
        expired: gone.length,
      });
    await this.converge();
    await this.save();
    return saved;
  }

  async applyAnswer(answer: AllowListResponse): Promise<boolean> {
    const touched = this.allowList.apply(answer, this.options.now());
    const isNewVersion = answer.version !== this.appliedVersion;
    if (touched.length === 0 && !isNewVersion && this.users.isInStep) return false;
    this.users.touch(touched);
    await this.converge();
    await this.save();
    return true;
  }

  /** Expiry by the agent's own clock, and another try at whatever the core refused. */
  async sweep(): Promise<boolean> {
    const expired = this.allowList.expire(this.options.now());
    if (expired.length === 0 && this.users.isInStep) return false;
    if (expired.length > 0) this.options.log("info", "credentials expired", { count: expired.length });
    this.users.touch(expired);
    await this.converge();
    await this.save();
    return true;
  }

  /**
   * The product refuses this node: nobody stays on the core, in the saved list either, and
   * the next question is for the whole list (version 0), so that an answer after the
   * refusal ends brings everyone back.
   */
  async empty(): Promise<void> {
    const touched = this.allowList.apply(
      { version: 0, full: true, entries: [], removed: [] },
      this.options.now(),
    );
    this.users.touch(touched);
    await this.converge();
    await this.save();
  }

  /** The core restarted and lost every user added at run time: all of them again. */
  async coreRestarted(): Promise<void> {
    this.users.forgetCore();
    await this.converge();
  }

  private async converge(): Promise<void> {
    const result = await this.users.converge();
    if (result.failed > 0)
      this.options.log("warn", "the core did not take some changes; retrying", {
        failed: result.failed,
        cause: errorText(result.firstError),
      });
    if (this.users.isInStep) this.appliedVersion = this.allowList.version;
  }

  /** One write at a time; changes made during a write are saved by the next one. */
  save(): Promise<void> {
    this.isSaveWanted = true;
    this.saving ??= (async () => {
      while (this.isSaveWanted) {
        this.isSaveWanted = false;
        try {
          await saveState(this.options.statePath, this.snapshot());
        } catch (error) {
          this.options.log("error", "AGENT_STATE could not be written", {
            path: this.options.statePath,
            cause: (error as Error).message,
          });
        }
      }
    })().finally(() => {
      this.saving = undefined;
    });
    return this.saving;
  }

  private snapshot(): SavedState {
    const leftovers: [string, string][] = [];
    for (const [tag, id] of this.users.held)
      if (this.allowList.entries.get(tag)?.id !== id) leftovers.push([tag, id]);
    return {
      version: this.allowList.version,
      entries: [...this.allowList.entries],
      leftovers,
      ...this.options.identity(),
    };
  }
}
