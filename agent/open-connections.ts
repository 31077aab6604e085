/** A client's end of a connection to one of the node's inbounds. */
export type Endpoint = {
  ip: string;
  port: number;
  /** The node's port it came in on; undefined when the log does not say (V2Ray 4): any managed one. */
  inboundPort?: number;
  seenAt: number;
};

const keyOf = (ip: string, port: number) => (ip.includes(":") ? `[${ip}]:${port}` : `${ip}:${port}`);

/**
 * Which client endpoints each device tag has open, learned from the access log: removing a
 * user from the core does not close its open connections (DESIGN §8), so the agent closes
 * these sockets itself when the tag leaves. There is no cap per device: a torrent client or
 * a tunnel keeps hundreds of connections open, and one forgotten is one that outlives a
 * refund. Memory follows what is open instead: `prune` drops what the kernel no longer lists.
 */
export class OpenConnections {
  private readonly byTag = new Map<string, Map<string, Endpoint>>();
  /** endpoint → tag: a client port reused by another device (NAT) belongs to the newest. */
  private readonly owners = new Map<string, string>();

  record(tag: string, endpoint: Endpoint): void {
    const key = keyOf(endpoint.ip, endpoint.port);
    const previousOwner = this.owners.get(key);
    if (previousOwner !== undefined && previousOwner !== tag) this.byTag.get(previousOwner)?.delete(key);
    this.owners.set(key, tag);
    let endpoints = this.byTag.get(tag);
    if (!endpoints) {
      endpoints = new Map();
      this.byTag.set(tag, endpoints);
    }
    endpoints.delete(key);
    endpoints.set(key, endpoint);
  }

  /** The tag whose connection this `ip:port` is, as far as the log said. */
  ownerOf(key: string): string | undefined {
    return this.owners.get(key);
  }

  /** The tag's endpoints, forgotten at once: the caller closes them. */
  take(tag: string): Endpoint[] {
    const endpoints = this.byTag.get(tag);
    if (!endpoints) return [];
    this.byTag.delete(tag);
    for (const key of endpoints.keys()) this.owners.delete(key);
    return [...endpoints.values()];
  }

  /** Every tag with an endpoint known, as a copy (the caller may take them meanwhile). */
  tags(): string[] {
    return [...this.byTag.keys()];
  }

  /**
   * Forgets endpoints no longer connected (`established` holds `ip:port` keys of the
   * sockets open now) and, when the list could not be read, any seen before `cutoff`.
   */
  prune(established: Set<string> | undefined, listedAt: number, cutoff: number): void {
    for (const [tag, endpoints] of this.byTag) {
      for (const [key, endpoint] of endpoints) {
        const isGone = established
          ? endpoint.seenAt < listedAt && !established.has(key)
          : endpoint.seenAt < cutoff;
        if (isGone) {
          endpoints.delete(key);
          this.owners.delete(key);
        }
      }
      if (endpoints.size === 0) this.byTag.delete(tag);
    }
  }

  get size(): number {
    return this.owners.size;
  }
}

export { keyOf as endpointKey };
