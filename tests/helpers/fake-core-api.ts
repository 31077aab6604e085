import type { CoreApi } from "../../agent/core-api";
import type { CoreUser, Stat, SysStats } from "../../agent/core-messages";

/**
 * A core's API in memory, answering as V2Ray and Xray do: "already exists" and "not
 * found" errors, users lost on restart, calls failing while it is down.
 */
export class FakeCoreApi implements CoreApi {
  /** inbound tag → email → user */
  readonly inbounds = new Map<string, Map<string, CoreUser>>();
  readonly calls: string[] = [];
  isDown = false;
  /** Inbound tags whose next add fails once (a core refusing part of a change). */
  readonly failNextAddOn = new Set<string>();
  traffic: Stat[] = [];
  sysStatsCalls = 0;
  private uptimeSeconds = 100;

  constructor(inboundTags: string[]) {
    for (const tag of inboundTags) this.inbounds.set(tag, new Map());
  }

  /** What one inbound holds: email → id. */
  users(inboundTag: string): Record<string, string> {
    return Object.fromEntries(
      [...(this.inbounds.get(inboundTag) ?? new Map<string, CoreUser>())].map(([email, user]) => [
        email,
        user.account.id,
      ]),
    );
  }

  restart(): void {
    for (const users of this.inbounds.values()) users.clear();
    this.uptimeSeconds = 0;
  }

  private inbound(tag: string): Map<string, CoreUser> {
    if (this.isDown)
      throw Object.assign(new Error("14 UNAVAILABLE: No connection established"), { code: 14 });
    const users = this.inbounds.get(tag);
    if (!users) throw new Error(`2 UNKNOWN: failed to get handler: ${tag} > handler not found: ${tag}`);
    return users;
  }

  async addUser(inboundTag: string, user: CoreUser): Promise<"added" | "exists"> {
    this.calls.push(`add ${inboundTag} ${user.email}`);
    const users = this.inbound(inboundTag);
    if (this.failNextAddOn.delete(inboundTag)) throw new Error("2 UNKNOWN: simulated refusal");
    if (users.has(user.email)) return "exists";
    users.set(user.email, user);
    return "added";
  }

  async removeUser(inboundTag: string, email: string): Promise<"removed" | "absent"> {
    this.calls.push(`remove ${inboundTag} ${email}`);
    const users = this.inbound(inboundTag);
    return users.delete(email) ? "removed" : "absent";
  }

  async takeUserTraffic(): Promise<Stat[]> {
    if (this.isDown) throw new Error("14 UNAVAILABLE");
    const taken = this.traffic;
    this.traffic = [];
    return taken;
  }

  async sysStats(): Promise<SysStats> {
    this.sysStatsCalls++;
    if (this.isDown) throw new Error("14 UNAVAILABLE");
    this.uptimeSeconds++;
    return {
      uptimeSeconds: this.uptimeSeconds,
      totalAlloc: 1000 * this.uptimeSeconds,
      mallocs: this.uptimeSeconds,
    };
  }

  close(): void {}
}
