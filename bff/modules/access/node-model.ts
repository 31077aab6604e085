import { t } from "elysia";

/**
 * The node API's schemas (the shapes of node-wire.ts, with limits). A batch must also fit
 * the 64 KB body limit, which 1,000 samples or events do not always: agents send more,
 * smaller batches.
 */
export const maxBatchItems = 1000;
const maxInbounds = 64;

const tag = t.String({ minLength: 1, maxLength: 64, description: "the device's opaque node tag" });
const bytes = t.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });
const version = t.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });
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
  port: t.Integer({ minimum: 1, maximum: 65535 }),
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
  credentials: t.Integer({ minimum: 0, maximum: 100_000_000 }),
  agentVersion: t.Optional(text(64)),
});

export const nodeEvents = t.Object({
  batchId: t.Optional(t.String({ minLength: 1, maxLength: 64, pattern: "^[0-9A-Za-z-]+$" })),
  traffic: t.Array(t.Object({ tag, upload: bytes, download: bytes }), { maxItems: maxBatchItems }),
  connections: t.Array(
    t.Object({
      tag,
      clientIp: t.String({ minLength: 2, maxLength: 45, pattern: "^[0-9A-Fa-f:.]+$" }),
      at: t.Integer({ minimum: 0, maximum: 8_640_000_000_000_000 }),
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
