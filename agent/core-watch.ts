import type { CoreApi } from "./core-api.ts";
import type { SysStats } from "./core-messages.ts";

export type CoreState = "up" | "down" | "restarted";

/**
 * Notices a core restart, after which the core has lost every user added at run time:
 * its uptime, or a counter that only grows within one process, went down; or its API
 * failed and now answers again (a restart, or a core that came up after the agent).
 */
export class CoreWatch {
  private last: SysStats | undefined;
  private isDown = false;

  private readonly api: CoreApi;

  constructor(api: CoreApi) {
    this.api = api;
  }

  /** The core's uptime at the last look, in seconds (undefined before one answered). */
  get uptimeSeconds(): number | undefined {
    return this.last?.uptimeSeconds;
  }

  get isUp(): boolean {
    return this.last !== undefined && !this.isDown;
  }

  async check(): Promise<CoreState> {
    let stats: SysStats;
    try {
      stats = await this.api.sysStats();
    } catch {
      this.isDown = true;
      return "down";
    }
    const last = this.last;
    this.last = stats;
    const wasDown = this.isDown;
    this.isDown = false;
    if (wasDown) return "restarted";
    if (
      last &&
      (stats.uptimeSeconds < last.uptimeSeconds ||
        stats.totalAlloc < last.totalAlloc ||
        stats.mallocs < last.mallocs)
    )
      return "restarted";
    return "up";
  }
}
