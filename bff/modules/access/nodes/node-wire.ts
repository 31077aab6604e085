/**
 * The node API's wire shapes (DESIGN §8): what the product and the node agent (`agent/`)
 * send each other. The agent imports this file and nothing else from `bff/`, so it holds
 * types only: no runtime code, no imports.
 *
 * Every call carries `Authorization: Bearer {NODE_KEY}` and `X-Agent-Instance: {UUID}`, a
 * UUID the agent makes once and keeps in its state file (AGENT_STATE). One key is one agent:
 * the product keeps, per node, the instance last seen and when (wall clock). A call from
 * another instance while that one was heard from within the last 60 s is refused with 409
 * `node_agent_conflict` (its message names the conflict and what to do) and changes nothing:
 * no report stored, no events, no allow-list; the panel shows when and from which address.
 * Once the last instance has been silent for 60 s, the next one to call takes the key. A call
 * without the header counts as the instance "" (clients of the API other than the agent keep
 * working, as one instance); a header that is not a UUID is 400 `invalid_agent_instance`.
 * - `GET  /api/nodes/allowlist?since={version}&wait={seconds}`: the allow-list. Without
 *   `since` (or 0, or a version the log no longer holds, or after a change that touches
 *   everyone) the whole list, `full: true`; otherwise only the devices whose access changed
 *   after `since`. With `wait` (at most 20 s) the call waits for a change before answering
 *   an empty delta, so a change reaches every agent within a second (long poll). A poll
 *   checks its node again before it answers: disabled while it waited, 403; its key
 *   replaced meanwhile, 401 `node_key_rotated`.
 * - `POST /api/nodes/report`: the node's report of itself, at start, after each applied
 *   change and at least every 10 s (its heartbeat).
 * - `POST /api/nodes/events`: traffic per credential and connection events, in batches at
 *   least every 10 s; at most 1,000 samples and 1,000 events per batch, and a body of at
 *   most 64 KB (some 900 samples or 500 events), so a busy node sends several. A batch
 *   sent again under its `batchId` is stored once. Answers `NodeEventsAck`. A sample
 *   that says a device moved more bytes (per direction, its samples in the batch added up)
 *   than the node's link carries in the batch's `periodMs` (counted as at least 10 s; the
 *   product's NODE_LINK_GBPS, 10 Gbit/s by default) refuses the whole batch with 400
 *   `node_traffic_beyond_link`: a counter that went wrong, not traffic to store. A node
 *   that sends more than the product takes in (about 22,000 items a second on average, twice
 *   what 100,000 active credentials need, with a burst of ten seconds of that) is answered
 *   429 `node_busy` with `Retry-After` (seconds) before its body is read: the agent keeps the
 *   batch and sends it again after that wait.
 * - Numbers are JSON numbers: one written as text ("5") is bad input, as is a client
 *   address that is not an IPv4 or IPv6 address.
 * - Bad input is 400, a missing or unknown key 401, a disabled node 403, a second agent
 *   409, each with `{success: false, error: {code, message}}`. A key the panel has replaced (the last
 *   rotation's) is 401 `node_key_rotated`, its message saying when ("This node's key was
 *   replaced on …: put the new key in NODE_KEY"); the product notes when it was last used
 *   and the panel shows it. Any other key is 401 `node_key_unknown`.
 */

/** One credential allowed on the nodes. */
export type AllowEntry = {
  /** Opaque device tag: the core user's `email`. Never the customer's e-mail or id. */
  tag: string;
  /** The VLESS/VMess `id` (a UUID). */
  id: string;
  /**
   * How long access has left, in milliseconds, counted by the product's clock when it
   * answered. The agent removes the entry when this runs out by its own clock, also while
   * the product is unreachable; it never extends it.
   */
  remainingMs: number;
};

export type AllowListResponse = {
  /** The version this answer brings the node to; send it back as `since`. */
  version: number;
  /** true: `entries` is the whole list, and anything else on the node must go. */
  full: boolean;
  /** Credentials to be present (added, or replaced when the tag's id changed). */
  entries: AllowEntry[];
  /** Tags to remove. */
  removed: string[];
};

export type InboundProtocol = "vless" | "vmess";
export type InboundNetwork = "tcp" | "ws" | "grpc" | "xhttp" | "httpupgrade";
export type InboundSecurity = "none" | "tls" | "reality";

/** One inbound the agent manages (its tag starts with `kannt`), as the links need it. */
export type InboundReport = {
  tag: string;
  protocol: InboundProtocol;
  port: number;
  network: InboundNetwork;
  security: InboundSecurity;
  /** VLESS flow every client of this inbound uses (`xtls-rprx-vision` with REALITY). */
  flow?: string;
  /** ws / httpupgrade / xhttp path. */
  path?: string;
  /** ws / httpupgrade / xhttp Host header. */
  hostHeader?: string;
  /** gRPC service name. */
  serviceName?: string;
  /** TLS or REALITY server name the client sends (`sni`). */
  sni?: string;
  /** uTLS fingerprint (`fp`), REALITY's default `chrome`. */
  fingerprint?: string;
  /** TLS ALPN list. */
  alpn?: string[];
  /** REALITY public key (`pbk`), derived by the agent from the inbound's private key. */
  publicKey?: string;
  /** REALITY short id (`sid`), the first of the inbound's list. */
  shortId?: string;
  /** REALITY spider path (`spx`). */
  spiderX?: string;
};

export type NodeReport = {
  core: "xray" | "v2ray";
  coreVersion: string;
  /** The address client apps dial (NODE_HOST). */
  host: string;
  inbounds: InboundReport[];
  /** The allow-list version the core holds now. */
  appliedVersion: number;
  /**
   * How many credentials the core holds now, as the core accepted them (the panel compares
   * it with the expected); 0 while the core is down.
   */
  credentials: number;
  /**
   * The core's state, not the agent's intent: "down" when the core's API does not answer or
   * refuses calls (then `credentials` is 0, and the product stores 0 whatever is sent). The
   * panel shows such a node as core down, neither online nor in sync, and
   * `kannt_node_core_up{node}` is 0. Without it (agents before this field) the core counts
   * as up.
   */
  coreState?: "up" | "down";
  agentVersion?: string;
};

/** Bytes a credential moved since the last batch (counters read with reset). */
export type TrafficSample = { tag: string; upload: number; download: number };

/** One connection the core accepted (or refused, when the tag is known). */
export type ConnectionEvent = {
  tag: string;
  /** The client's address as the core saw it, without the port. */
  clientIp: string;
  /** Wall-clock milliseconds since the epoch. */
  at: number;
  success: boolean;
};

export type NodeEvents = {
  /**
   * The agent's name for this batch (a UUID), the same each time it is sent again: a batch
   * whose answer was lost after the product stored it is then recognised (for a day) and
   * acknowledged without being counted twice. Without one, every send is stored.
   */
  batchId?: string;
  /**
   * How long the batch's traffic was gathered, in milliseconds (1 ms to 7 days): the time
   * since the counters were last read with reset. Without it (agents before this field) the
   * longest period, 7 days, is assumed when the samples are checked against the link.
   */
  periodMs?: number;
  traffic: TrafficSample[];
  connections: ConnectionEvent[];
};

export type NodeAck = { success: true };

/**
 * The events' answer: how many samples and events named a tag no device has (dropped);
 * `repeated` when the batch's id was stored before, so nothing of it was stored again.
 */
export type NodeEventsAck = NodeAck & { ignored: number; repeated?: true };
