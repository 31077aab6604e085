import { randomBytes } from "node:crypto";

/**
 * A small network of its own for the censorship test (DESIGN §8, §10): three network
 * namespaces, a VPN node, a probe in the customers' network and a customer's client, joined
 * by veth pairs, and `nft` rules in the node's namespace that drop what the censor blocks
 * between the probe and the node. The product stays in the test's own namespace, reached
 * over two more veth pairs. Traffic goes only between these namespaces and loopback: every
 * address is in a 10.x network made here, with no route anywhere else.
 *
 *   product (this namespace) 10.N.0.1 ── 10.N.0.2 node ── 10.N.1.1 … 10.N.1.2 probe
 *   product (this namespace) 10.N.3.1 ─────────────────────────────── 10.N.3.2 probe
 *                                            node 10.N.2.1 … 10.N.2.2 client
 *
 * The node's public address (NODE_HOST) is 10.N.1.1; the client reaches it through the
 * node's other side. Needs root, `ip` (iproute2) and `nft` (nftables): without them it
 * fails, saying what is missing, never skips.
 */
export class CensorNetwork {
  readonly node: string;
  readonly probe: string;
  readonly client: string;
  /** The node's address as client apps and probes dial it. */
  readonly nodeHost: string;
  /** The product as the node's agent reaches it. */
  readonly productFromNode: string;
  /** The product as the probe reaches it. */
  readonly productFromProbe: string;
  /** The node's side of the link the probe comes in by: what the censor watches. */
  private readonly probeFacing: string;
  private readonly net: number;

  private constructor(id: string, net: number) {
    this.node = `kc${id}-node`;
    this.probe = `kc${id}-probe`;
    this.client = `kc${id}-client`;
    this.net = net;
    this.nodeHost = `10.${net}.1.1`;
    this.productFromNode = `10.${net}.0.1`;
    this.productFromProbe = `10.${net}.3.1`;
    this.probeFacing = `kc${id}np`;
  }

  static create(): CensorNetwork {
    for (const tool of ["ip", "nft"])
      if (!Bun.which(tool))
        throw new Error(
          `${tool} is not installed: the censorship test builds its own network (apt-get install -y iproute2 nftables; .ci/run does).`,
        );
    const id = randomBytes(2).toString("hex");
    const network = new CensorNetwork(id, 100 + ((randomBytes(1)[0] ?? 0) % 100));
    try {
      network.build(id);
    } catch (error) {
      network.close();
      throw new Error(
        `Network namespaces could not be made here (root and ip netns are needed): ${(error as Error).message}`,
      );
    }
    return network;
  }

  private build(id: string): void {
    const n = this.net;
    for (const space of [this.node, this.probe, this.client]) {
      run(["ip", "netns", "add", space]);
      run(["ip", "-n", space, "link", "set", "lo", "up"]);
    }
    // product ↔ node, node ↔ probe, node ↔ client, product ↔ probe.
    this.link(`kc${id}rn`, undefined, `10.${n}.0.1/24`, `kc${id}nr`, this.node, `10.${n}.0.2/24`);
    this.link(this.probeFacing, this.node, `10.${n}.1.1/24`, `kc${id}pn`, this.probe, `10.${n}.1.2/24`);
    this.link(`kc${id}nc`, this.node, `10.${n}.2.1/24`, `kc${id}cn`, this.client, `10.${n}.2.2/24`);
    this.link(`kc${id}rp`, undefined, `10.${n}.3.1/24`, `kc${id}pr`, this.probe, `10.${n}.3.2/24`);
    // The client dials the node's public address through the node's own side of their link.
    run(["ip", "-n", this.client, "route", "add", `10.${n}.1.0/24`, "via", `10.${n}.2.1`]);
  }

  private link(
    left: string,
    leftSpace: string | undefined,
    leftAddress: string,
    right: string,
    rightSpace: string,
    rightAddress: string,
  ) {
    run(["ip", "link", "add", left, "type", "veth", "peer", "name", right]);
    if (leftSpace) run(["ip", "link", "set", left, "netns", leftSpace]);
    run(["ip", "link", "set", right, "netns", rightSpace]);
    const on = (space: string | undefined) => (space ? ["-n", space] : []);
    run(["ip", ...on(leftSpace), "addr", "add", leftAddress, "dev", left]);
    run(["ip", ...on(leftSpace), "link", "set", left, "up"]);
    run(["ip", "-n", rightSpace, "addr", "add", rightAddress, "dev", right]);
    run(["ip", "-n", rightSpace, "link", "set", right, "up"]);
  }

  /** `command` run inside `space`. */
  inside(space: string, command: string[]): string[] {
    return ["ip", "netns", "exec", space, ...command];
  }

  /** The censor drops every TCP packet from the probe's network to `port` on the node. */
  block(port: number): void {
    const rules = `table inet censor {
  chain input {
    type filter hook input priority 0; policy accept;
    iifname "${this.probeFacing}" tcp dport ${port} drop
  }
}
`;
    run(this.inside(this.node, ["nft", "-f", "-"]), rules);
  }

  unblock(): void {
    run(this.inside(this.node, ["nft", "delete", "table", "inet", "censor"]));
  }

  /** Every namespace goes, and with them the veth pairs (a pair goes when either end does). */
  close(): void {
    for (const space of [this.node, this.probe, this.client])
      Bun.spawnSync(["ip", "netns", "del", space], { stdout: "ignore", stderr: "ignore" });
  }
}

function run(command: string[], input?: string): void {
  const result = Bun.spawnSync(command, {
    stdin: input === undefined ? "ignore" : new TextEncoder().encode(input),
    stdout: "pipe",
    stderr: "pipe",
  });
  if (result.exitCode !== 0) throw new Error(`${command.join(" ")}: ${result.stderr.toString().trim()}`);
}
