import { isIP } from "node:net";
import { FormatRegistry, type IntegerOptions, Type } from "@sinclair/typebox";
import { t } from "elysia";
import { dayMs } from "../../../platform/calendar";

/**
 * The node API's schemas (the shapes of node-wire.ts, with limits). A batch must also fit
 * the 64 KB body limit, which 1,000 samples or events do not always: agents send more,
 * smaller batches.
 */
export const maxBatchItems = 1000;
const maxInbounds = 64;
/** The longest a batch's traffic may have been gathered: an agent cut off from the product for a week. */
export const maxPeriodMs = 7 * dayMs;

/**
 * A whole number written as a JSON number. Elysia's own `t.Integer` also takes one written
 * as text ("5"), which no agent sends: a node's numbers are taken only as numbers, so a
 * counter that went wrong on the way is refused rather than guessed at.
 */
const wholeNumber = (options: IntegerOptions) => Type.Integer(options);

/**
 * A client address as the core logs it: IPv4 or IPv6 (without a zone), read by the
 * runtime's address parser, so "::::::" or "1.2.3.999" is refused where a pattern of
 * allowed characters would let it through.
 */
const ipAddressFormat = "ip-address";
if (!FormatRegistry.Has(ipAddressFormat))
  FormatRegistry.Set(ipAddressFormat, (value) => isIP(value) !== 0 && !value.includes("%"));

const tag = t.String({ minLength: 1, maxLength: 64, description: "the device's opaque node tag" });
const bytes = wholeNumber({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });
const version = wholeNumber({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });
const text = (maxLength: number) => t.String({ maxLength });
const literals = <const Names extends string[]>(...names: Names) =>
  t.Union(names.map((name) => t.Literal(name)));

/** `since` and `wait` as written in a URL: whole decimal numbers, nothing a number parser would also read. */
export const allowListQuery = t.Object({
  since: t.Optional(
    t
      .Transform(t.String({ pattern: "^(0|[1-9][0-9]{0,14})$", description: "the version the node applied" }))
      .Decode(Number)
      .Encode(String),
  ),
  wait: t.Optional(
    t
      .Transform(
        t.String({ pattern: "^(1?[0-9]|20)$", description: "seconds to wait for a change, 0 to 20" }),
      )
      .Decode(Number)
      .Encode(String),
  ),
});

const allowEntry = t.Object({ tag: t.String(), id: t.String(), remainingMs: t.Number() });

export const allowListResponse = t.Object({
  version: t.Number(),
  full: t.Boolean(),
  entries: t.Array(allowEntry),
  removed: t.Array(t.String()),
});

const inbound = t.Object({
  tag: t.String({ minLength: 1, maxLength: 64 }),
  protocol: literals("vless", "vmess"),
  port: wholeNumber({ minimum: 1, maximum: 65535 }),
  network: literals("tcp", "ws", "grpc", "xhttp", "httpupgrade"),
  security: literals("none", "tls", "reality"),
  flow: t.Optional(text(64)),
  path: t.Optional(text(256)),
  hostHeader: t.Optional(text(253)),
  serviceName: t.Optional(text(128)),
  sni: t.Optional(text(253)),
  fingerprint: t.Optional(text(32)),
  alpn: t.Optional(t.Array(text(32), { maxItems: 8 })),
  publicKey: t.Optional(text(128)),
  shortId: t.Optional(text(32)),
  spiderX: t.Optional(text(256)),
});

export const nodeReport = t.Object({
  core: literals("xray", "v2ray"),
  coreVersion: t.String({ minLength: 1, maxLength: 64 }),
  host: t.String({ minLength: 1, maxLength: 253, description: "the address client apps dial (NODE_HOST)" }),
  inbounds: t.Array(inbound, { maxItems: maxInbounds }),
  appliedVersion: version,
  credentials: wholeNumber({ minimum: 0, maximum: 100_000_000 }),
  coreState: t.Optional(literals("up", "down")),
  agentVersion: t.Optional(text(64)),
});

export const nodeEvents = t.Object({
  batchId: t.Optional(t.String({ minLength: 1, maxLength: 64, pattern: "^[0-9A-Za-z-]+$" })),
  periodMs: t.Optional(
    wholeNumber({
      minimum: 1,
      maximum: maxPeriodMs,
      description: "how long the batch's traffic was gathered, in milliseconds",
    }),
  ),
  traffic: t.Array(t.Object({ tag, upload: bytes, download: bytes }), { maxItems: maxBatchItems }),
  connections: t.Array(
    t.Object({
      tag,
      clientIp: t.String({ minLength: 2, maxLength: 45, format: ipAddressFormat }),
      at: wholeNumber({ minimum: 0, maximum: 8_640_000_000_000_000 }),
      success: t.Boolean(),
    }),
    { maxItems: maxBatchItems },
  ),
});

export const nodeAck = t.Object({ success: t.Literal(true) });

export const nodeEventsAck = t.Object({
  success: t.Literal(true),
  ignored: t.Integer({
    description: "samples and events whose tag no device has (unlinked, deleted): dropped",
  }),
  repeated: t.Optional(
    t.Literal(true, { description: "this batchId was stored before: nothing of it was stored again" }),
  ),
});
