/**
 * The node API (DESIGN §8), written once: the schemas the product's routes validate with and
 * the agent checks every answer with, and the types inferred from them. It lives in the
 * agent's package, so a node installs only what the agent needs (TypeBox), and the product
 * imports it from here. Every call carries `Authorization: Bearer {NODE_KEY}` and
 * `X-Agent-Instance: {UUID}` (below).
 *
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
 *   most 64 KB (some 900 samples or 500 events), so a busy node sends several. A batch sent
 *   again under its `batchId` is stored once. A sample that says a device moved more bytes
 *   (per direction, its samples in the batch added up) than the node's link carries in the
 *   batch's `periodMs` (counted as at least 10 s; the product's NODE_LINK_GBPS) refuses the
 *   whole batch with 400 `node_traffic_beyond_link`. A node that sends more than the product
 *   takes in is answered 429 `node_busy` with `Retry-After` (seconds) before its body is
 *   read: the agent keeps the batch and sends it again after that wait.
 * - One key is one agent: the product keeps, per node, the `X-Agent-Instance` last seen and
 *   when. A call from another instance while that one was heard from within 60 s is 409
 *   `node_agent_conflict` and changes nothing; once it has been silent for 60 s, the next
 *   one takes the key. A call without the header counts as the instance "".
 * - Numbers are JSON numbers: one written as text ("5") is bad input, as is a client
 *   address that is not an IPv4 or IPv6 address.
 * - Bad input is 400, a missing or unknown key 401 (`node_key_unknown`; the last rotation's
 *   replaced key `node_key_rotated`, saying when), a disabled node 403, a second agent 409,
 *   too much at once 429, each with `{success: false, error: {code, message}}`.
 */
import { isIP } from "node:net";
import { FormatRegistry, type IntegerOptions, type Static, Type } from "@sinclair/typebox";

/** Samples and events a batch may hold, each. A batch must also fit the product's 64 KB body limit. */
export const maxBatchItems = 1000;
const maxInbounds = 64;
/** The longest a batch's traffic may have been gathered: an agent cut off from the product for a week. */
export const maxPeriodMs = 7 * 24 * 60 * 60 * 1000;

/**
 * A client address as the core logs it: IPv4 or IPv6 (without a zone), read by the
 * runtime's address parser, so "::::::" or "1.2.3.999" is refused where a pattern of
 * allowed characters would let it through.
 */
const ipAddressFormat = "ip-address";
if (!FormatRegistry.Has(ipAddressFormat))
  FormatRegistry.Set(ipAddressFormat, (value) => isIP(value) !== 0 && !value.includes("%"));

/** A whole number written as a JSON number, never as text: a counter that went wrong is refused, not guessed at. */
const wholeNumber = (options: IntegerOptions) => Type.Integer(options);
const text = (maxLength: number) => Type.String({ maxLength });

const tag = Type.String({ minLength: 1, maxLength: 64, description: "the device's opaque node tag" });
const bytes = wholeNumber({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });
const version = wholeNumber({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });

/**
 * `since` and `wait` as written in a URL: whole decimal numbers, nothing a number parser
 * would also read ("1e3", " 5", "0x10"); the route reads them with Number().
 */
export const allowListQuery = Type.Object({
  since: Type.Optional(
    Type.String({ pattern: "^(0|[1-9][0-9]{0,14})$", description: "the version the node applied" }),
  ),
  wait: Type.Optional(
    Type.String({ pattern: "^(1?[0-9]|20)$", description: "seconds to wait for a change, 0 to 20" }),
  ),
});

/** One credential allowed on the nodes. */
export const allowEntry = Type.Object({
  tag: Type.String({
    minLength: 1,
    description: "opaque device tag: the core user's email, never the customer's e-mail or id",
  }),
  id: Type.String({ minLength: 1, description: "the VLESS/VMess id (a UUID)" }),
  remainingMs: Type.Number({
    description:
      "how long access has left, counted by the product's clock when it answered: the agent removes the entry when this runs out by its own clock, also while the product is unreachable, and never extends it",
  }),
});

export const allowListResponse = Type.Object({
  version: wholeNumber({
    minimum: 0,
    maximum: Number.MAX_SAFE_INTEGER,
    description: "the version this answer brings the node to; sent back as since",
  }),
  full: Type.Boolean({
    description: "true: entries is the whole list, and anything else on the node must go",
  }),
  entries: Type.Array(allowEntry, {
    description: "credentials to be present (added, or replaced when the id changed)",
  }),
  removed: Type.Array(Type.String(), { description: "tags to remove" }),
});

/** One inbound the agent manages (its tag starts with `kannt`), as the links need it. */
export const inboundReport = Type.Object({
  tag: Type.String({ minLength: 1, maxLength: 64 }),
  protocol: Type.Union([Type.Literal("vless"), Type.Literal("vmess")]),
  port: wholeNumber({ minimum: 1, maximum: 65535 }),
  network: Type.Union([
    Type.Literal("tcp"),
    Type.Literal("ws"),
    Type.Literal("grpc"),
    Type.Literal("xhttp"),
    Type.Literal("httpupgrade"),
  ]),
  security: Type.Union([Type.Literal("none"), Type.Literal("tls"), Type.Literal("reality")]),
  flow: Type.Optional(text(64)),
  path: Type.Optional(text(256)),
  hostHeader: Type.Optional(text(253)),
  serviceName: Type.Optional(text(128)),
  sni: Type.Optional(text(253)),
  fingerprint: Type.Optional(text(32)),
  alpn: Type.Optional(Type.Array(text(32), { maxItems: 8 })),
  publicKey: Type.Optional(text(128)),
  shortId: Type.Optional(text(32)),
  spiderX: Type.Optional(text(256)),
  minClientVer: Type.Optional(
    Type.String({
      maxLength: 16,
      pattern: "^[0-9]+(\\.[0-9]+){0,2}$",
      description:
        "REALITY: the oldest client version the server lets in (Xray's realitySettings.minClientVer; on Xray 26.7.11 and later 26.3.27 when the config sets none)",
    }),
  ),
});

export const nodeReport = Type.Object({
  core: Type.Union([Type.Literal("xray"), Type.Literal("v2ray")]),
  coreVersion: Type.String({ minLength: 1, maxLength: 64 }),
  host: Type.String({
    minLength: 1,
    maxLength: 253,
    description: "the address client apps dial (NODE_HOST)",
  }),
  inbounds: Type.Array(inboundReport, { maxItems: maxInbounds }),
  appliedVersion: version,
  credentials: wholeNumber({
    minimum: 0,
    maximum: 100_000_000,
    description: "credentials the core took on every managed inbound: the core's state, 0 while it is down",
  }),
  coreState: Type.Optional(
    Type.Union([Type.Literal("up"), Type.Literal("down")], {
      description: "down: the core's API does not answer or refuses calls; without it (older agents), up",
    }),
  ),
  agentVersion: Type.Optional(text(64)),
});

export const trafficSample = Type.Object({ tag, upload: bytes, download: bytes });

export const connectionEvent = Type.Object({
  tag,
  clientIp: Type.String({ minLength: 2, maxLength: 45, format: ipAddressFormat }),
  at: wholeNumber({
    minimum: 0,
    maximum: 8_640_000_000_000_000,
    description: "wall-clock ms since the epoch",
  }),
  success: Type.Boolean(),
});

export const nodeEvents = Type.Object({
  batchId: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      pattern: "^[0-9A-Za-z-]+$",
      description: "the agent's name for the batch, the same each time it is sent again: stored once",
    }),
  ),
  periodMs: Type.Optional(
    wholeNumber({
      minimum: 1,
      maximum: maxPeriodMs,
      description: "how long the batch's traffic was gathered, in ms (without it, 7 days is assumed)",
    }),
  ),
  traffic: Type.Array(trafficSample, { maxItems: maxBatchItems }),
  connections: Type.Array(connectionEvent, { maxItems: maxBatchItems }),
});

export const nodeAck = Type.Object({ success: Type.Literal(true) });

export const nodeEventsAck = Type.Object({
  success: Type.Literal(true),
  ignored: Type.Integer({
    description: "samples and events whose tag no device has (unlinked, deleted): dropped",
  }),
  repeated: Type.Optional(
    Type.Literal(true, { description: "this batchId was stored before: nothing of it was stored again" }),
  ),
});

/** A refusal of any node call. */
export const nodeError = Type.Object({
  success: Type.Literal(false),
  error: Type.Object({ code: Type.String(), message: Type.String() }),
});

export type AllowEntry = Static<typeof allowEntry>;
export type AllowListResponse = Static<typeof allowListResponse>;
export type InboundReport = Static<typeof inboundReport>;
export type InboundProtocol = InboundReport["protocol"];
export type InboundNetwork = InboundReport["network"];
export type InboundSecurity = InboundReport["security"];
export type NodeReport = Static<typeof nodeReport>;
export type TrafficSample = Static<typeof trafficSample>;
export type ConnectionEvent = Static<typeof connectionEvent>;
export type NodeEvents = Static<typeof nodeEvents>;
export type NodeAck = Static<typeof nodeAck>;
export type NodeEventsAck = Static<typeof nodeEventsAck>;
