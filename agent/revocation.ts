import type { AccessLine } from "./access-log";
import type { Logger } from "./log";
import { type Endpoint, OpenConnections } from "./open-connections";

export type Sockets = {
  close(endpoints: Endpoint[], managedPorts: number[]): Promise<void>;
  established(managedPorts: number[]): Promise<Set<string>>;
};

/**
 * A connection logged this long after its tag left is still closed: the core may have
 * accepted it just before the removal and written its line just after.
 */
const lateLineWindowMs = 30_000;
/** Without the socket list (ss failed), endpoints are forgotten after this long. */
const endpointMaxAgeMs = 6 * 60 * 60 * 1000;

/**
 * Ends the open connections of credentials that left the core (DESIGN §8: no byte flows
 * on them 5 s after the change), from the endpoints the access log showed for each tag.
 */
export class Revocation {
  private readonly open = new OpenConnections();
  private readonly recentlyRevoked = new Map<string, number>();

  constructor(
    private readonly managedPorts: number[],
    private readonly portOfInbound: Map<string, number>,
    private readonly sockets: Sockets,
    private readonly log: Logger,
    private readonly now: () => number,
    /** The tag is on the core again with the credential the product wants (re-added, or a new link). */
    private readonly isBack: (tag: string) => boolean,
  ) {}

  record(line: AccessLine): void {
    const endpoint: Endpoint = {
      ip: line.clientIp,
      port: line.clientPort,
      inboundPort: line.inboundTag === undefined ? undefined : this.portOfInbound.get(line.inboundTag),
      seenAt: this.now(),
    };
    const revokedAt = this.recentlyRevoked.get(line.tag);
    if (revokedAt !== undefined) {
      // Back on the core: its new lines are the customer's fresh connections, not late ones.
      if (this.isBack(line.tag)) this.recentlyRevoked.delete(line.tag);
      else if (this.now() - revokedAt < lateLineWindowMs) {
        void this.closeAll([endpoint]);
        return;
      }
    }
    this.open.record(line.tag, endpoint);
  }

  /** Forgets the endpoints of tags that are none of this product's (read back from the log before the list was known). */
  forgetUnless(isKnown: (tag: string) => boolean): void {
    this.open.forgetUnless(isKnown);
  }

  async revoke(tags: string[]): Promise<void> {
    const now = this.now();
    const endpoints: Endpoint[] = [];
    for (const tag of tags) {
      this.recentlyRevoked.set(tag, now);
      endpoints.push(...this.open.take(tag));
    }
    for (const [tag, at] of this.recentlyRevoked)
      if (now - at >= lateLineWindowMs) this.recentlyRevoked.delete(tag);
    await this.closeAll(endpoints);
  }

  /** Forgets endpoints whose connection has ended, so memory follows what is open. */
  async prune(): Promise<void> {
    const listedAt = this.now();
    let established: Set<string> | undefined;
    try {
      established = await this.sockets.established(this.managedPorts);
    } catch (error) {
      this.log("warn", "could not list open connections (ss)", { cause: (error as Error).message });
    }
    this.open.prune(established, listedAt, listedAt - endpointMaxAgeMs);
  }

  get trackedEndpoints(): number {
    return this.open.size;
  }

  private async closeAll(endpoints: Endpoint[]): Promise<void> {
    if (endpoints.length === 0) return;
    try {
      await this.sockets.close(endpoints, this.managedPorts);
    } catch (error) {
      this.log("error", "could not close revoked connections (ss -K; the agent must run as root)", {
        count: endpoints.length,
        cause: (error as Error).message,
      });
    }
  }
}
