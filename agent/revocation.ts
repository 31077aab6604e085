import { type AccessLine, parseAccessLine } from "./access-log.ts";
import type { Logger } from "./log.ts";
import { type Endpoint, endpointKey, OpenConnections } from "./open-connections.ts";

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
 * How long after a revocation a connection open at that moment may still lack its access
 * line before it counts as unnamed for good. Cores write their lines through a small
 * buffer and drop them when it is full (V2Ray's and Xray's logger keep 16 and discard the
 * rest): under a burst, a connection is accepted and never logged. Such a connection could
 * be the revoked device's, so it is closed; its app, if it may connect, connects again.
 */
const unnamedAfterMs = 1_000;
/** Endpoints learned since the last prune before one is run early: a flood of short connections must not grow memory for 30 s. */
const pruneEarlyAfter = 50_000;

/**
 * Ends the open connections of credentials that left the core (DESIGN §8: no byte flows
 * on them 5 s after the change), from the endpoints the access log showed for each tag,
 * however many a device has, and across agent restarts (`relearn`).
 */
export class Revocation {
  private readonly open = new OpenConnections();
  private readonly recentlyRevoked = new Map<string, number>();
  /** `ip:port` of connections open at start that no access line named: closed once the list is known. */
  private unnamedAtStart = new Set<string>();
  private sizeAfterPrune = 0;
  private pruning: Promise<void> | undefined;
  private readonly managedPorts: number[];
  private readonly portOfInbound: Map<string, number>;
  private readonly sockets: Sockets;
  private readonly log: Logger;
  private readonly now: () => number;

  /** The tag is on the core again with the credential the product wants (re-added, or a new link). */
  private readonly isBack: (tag: string) => boolean;

  constructor(
    managedPorts: number[],
    portOfInbound: Map<string, number>,
    sockets: Sockets,
    log: Logger,
    now: () => number,
    isBack: (tag: string) => boolean,
  ) {
    this.managedPorts = managedPorts;
    this.portOfInbound = portOfInbound;
    this.sockets = sockets;
    this.log = log;
    this.now = now;
    this.isBack = isBack;
  }

  record(line: AccessLine): void {
    const endpoint = this.endpointOf(line);
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
    if (this.open.size > this.sizeAfterPrune + pruneEarlyAfter) void this.prune();
  }

  /**
   * At start: learns whose every connection open on the managed ports is, by reading the
   * access log backwards from where the agent starts following it until each one's
   * accepted line is found (`readBack` stops when `onLine` answers false). The connections
   * opened while no agent ran are as revocable as any. Answers how many stayed unknown.
   */
  async relearn(
    readBack: (onLine: (text: string) => boolean) => Promise<unknown>,
  ): Promise<{ open: number; unknown: number }> {
    const established = await this.listEstablished();
    if (!established) return { open: 0, unknown: 0 };
    const wanted = new Set(established);
    if (wanted.size > 0)
      await readBack((text) => {
        const line = parseAccessLine(text);
        if (!line) return true;
        const key = endpointKey(line.clientIp, line.clientPort);
        // The newest line naming an endpoint is its connection's: an older one was an earlier
        // connection from the same port (NAT reuses them).
        if (wanted.delete(key)) this.open.record(line.tag, this.endpointOf(line));
        return wanted.size > 0;
      });
    this.unnamedAtStart = wanted;
    return { open: established.size, unknown: wanted.size };
  }

  /**
   * After the allow-list is known at start: every open connection whose device may not
   * connect, or which no line names, ends now. Nobody can say whose an unnamed one is, and
   * a paying customer's app simply connects again (and is logged).
   */
  async closeUnallowed(isAllowed: (tag: string) => boolean): Promise<number> {
    const endpoints: Endpoint[] = [];
    for (const tag of this.open.tags()) if (!isAllowed(tag)) endpoints.push(...this.open.take(tag));
    for (const key of this.unnamedAtStart)
      if (this.open.ownerOf(key) === undefined) endpoints.push(endpointOfKey(key, this.now()));
    this.unnamedAtStart = new Set();
    await this.closeAll(endpoints);
    return endpoints.length;
  }

  /**
   * Closes the tags' known connections at once; then, a moment later, every connection that
   * was open at the revocation and that still no access line names (`readLog` reads what
   * was written meanwhile). Connections opened after the removal are not the revoked
   * device's: the core refuses its credential by then.
   */
  async revoke(tags: string[], readLog: () => Promise<void>): Promise<void> {
    const now = this.now();
    const endpoints: Endpoint[] = [];
    for (const tag of tags) {
      this.recentlyRevoked.set(tag, now);
      endpoints.push(...this.open.take(tag));
    }
    for (const [tag, at] of this.recentlyRevoked)
      if (now - at >= lateLineWindowMs) this.recentlyRevoked.delete(tag);
    // Listed first: what is open from here on was accepted after the removal.
    const openAtRevocation = await this.listEstablished();
    await this.closeAll(endpoints);
    await new Promise((resolve) => setTimeout(resolve, unnamedAfterMs));
    await readLog().catch(() => undefined);
    const openNow = await this.listEstablished();
    const revokedKeys = new Set(endpoints.map((endpoint) => endpointKey(endpoint.ip, endpoint.port)));
    const unnamed = [...(openAtRevocation ?? [])].filter(
      (key) => !revokedKeys.has(key) && openNow?.has(key) !== false && this.open.ownerOf(key) === undefined,
    );
    // A close that did not take (ss failed or timed out on a busy node) is made again; an
    // address now named by another device's line is that device's new connection.
    const stillOpen = endpoints.filter(
      (endpoint) =>
        openNow?.has(endpointKey(endpoint.ip, endpoint.port)) &&
        this.open.ownerOf(endpointKey(endpoint.ip, endpoint.port)) === undefined,
    );
    if (unnamed.length > 0)
      this.log("info", "connections no access line names closed with a revocation", {
        count: unnamed.length,
      });
    if (stillOpen.length > 0)
      this.log("warn", "revoked connections still open after closing; closing them again", {
        count: stillOpen.length,
      });
    await this.closeAll([...stillOpen, ...unnamed.map((key) => endpointOfKey(key, now))]);
  }

  /** Forgets endpoints whose connection has ended, so memory follows what is open. */
  prune(): Promise<void> {
    this.pruning ??= (async () => {
      const listedAt = this.now();
      const established = await this.listEstablished();
      this.open.prune(established, listedAt, listedAt - endpointMaxAgeMs);
      this.sizeAfterPrune = this.open.size;
    })().finally(() => {
      this.pruning = undefined;
    });
    return this.pruning;
  }

  get trackedEndpoints(): number {
    return this.open.size;
  }

  private endpointOf(line: AccessLine): Endpoint {
    return {
      ip: line.clientIp,
      port: line.clientPort,
      inboundPort: line.inboundTag === undefined ? undefined : this.portOfInbound.get(line.inboundTag),
      seenAt: this.now(),
    };
  }

  private async listEstablished(): Promise<Set<string> | undefined> {
    try {
      return await this.sockets.established(this.managedPorts);
    } catch (error) {
      this.log("warn", "could not list open connections (ss)", { cause: (error as Error).message });
      return undefined;
    }
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

/** An `ip:port` key (IPv6 in brackets) back as an endpoint on any managed port. */
function endpointOfKey(key: string, seenAt: number): Endpoint {
  const match = /^\[?(.*?)\]?:(\d+)$/.exec(key);
  return { ip: match?.[1] ?? key, port: Number(match?.[2] ?? 0), seenAt };
}
