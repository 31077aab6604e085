import { Type } from "@sinclair/typebox";
import { type Static, t } from "elysia";
import { inboundReport } from "../../../../agent/contract/node-api";
import { oneOf, rowId } from "../../../platform/schemas";
import { alpnValues, fingerprints } from "./entry-rules";

/**
 * A whole number as a JSON number: TypeBox's own Integer, which refuses "443" where Elysia's
 * would read it (DESIGN §9: wrong types are rejected, as in the node API's contract).
 */
const wholeNumber = (options: { minimum: number; maximum: number }) => Type.Integer(options);

const nullableText = (maxLength: number) => t.Optional(t.Nullable(t.String({ maxLength })));
const fingerprint = oneOf(fingerprints);

/** What an operator may set on an entry; null gives a setting back to the inbound. */
export const settings = {
  address: nullableText(253),
  port: t.Optional(t.Nullable(wholeNumber({ minimum: 1, maximum: 65535 }))),
  sni: nullableText(253),
  fingerprint: t.Optional(t.Nullable(fingerprint)),
  alpn: t.Optional(t.Nullable(t.Array(oneOf(alpnValues), { maxItems: 3 }))),
  path: nullableText(256),
  hostHeader: nullableText(253),
  serviceName: nullableText(128),
  remark: t.Optional(t.String({ maxLength: 64 })),
  tags: t.Optional(t.Array(t.String({ maxLength: 32 }), { maxItems: 16 })),
  tariffs: t.Optional(
    t.Array(wholeNumber({ minimum: 1, maximum: 12 }), {
      maxItems: 4,
      description: "tariff months the entry is for (1, 3, 6, 12); empty: everyone",
    }),
  ),
  enabled: t.Optional(t.Boolean()),
};

/** What one probe last decided of an entry. */
export const probeVerdict = t.Object({
  probe: t.String(),
  up: t.Boolean(),
  since: t.String({ description: "ISO 8601: since when this probe finds it up, or down" }),
  checkedAt: t.String(),
  latencyMs: t.Nullable(t.Number()),
  lastError: t.Nullable(t.String()),
  lastErrorAt: t.Nullable(t.String()),
});

/** An entry as the panel's Nodes screen shows it. */
export const entry = t.Object({
  id: t.Number(),
  nodeId: t.Number(),
  nodeName: t.String(),
  inboundTag: t.String(),
  position: t.Number(),
  enabled: t.Boolean(),
  own: t.Object({
    address: t.Nullable(t.String()),
    port: t.Nullable(t.Number()),
    sni: t.Nullable(t.String()),
    fingerprint: t.Nullable(t.String()),
    alpn: t.Nullable(t.Array(t.String())),
    path: t.Nullable(t.String()),
    hostHeader: t.Nullable(t.String()),
    serviceName: t.Nullable(t.String()),
  }),
  dialed: t.Nullable(
    t.Object({
      address: t.Nullable(t.String()),
      // The inbound's own kinds, as the node's contract declares them.
      protocol: inboundReport.properties.protocol,
      port: t.Number(),
      network: inboundReport.properties.network,
      security: inboundReport.properties.security,
      sni: t.Nullable(t.String()),
      fingerprint: t.Nullable(t.String()),
      alpn: t.Array(t.String()),
    }),
  ),
  remark: t.String(),
  tags: t.Array(t.String()),
  tariffs: t.Array(t.Number()),
  out: t.Nullable(
    t.Union(
      [
        t.Literal("switchedOff"),
        t.Literal("nodeDisabled"),
        t.Literal("inboundGone"),
        t.Literal("silent"),
        t.Literal("coreDown"),
        t.Literal("notSyncing"),
        t.Literal("probeDown"),
      ],
      { description: "why the entry is in no subscription now; null: it is in them" },
    ),
  ),
  probes: t.Array(probeVerdict),
  connections: t.Nullable(t.Object({ total: t.Number(), successRate: t.Number() })),
  warning: t.Nullable(
    t.Union([t.Literal("russianTarget"), t.Literal("abusedTarget")], {
      description:
        "a REALITY entry whose camouflage name is a Russian site, or an Apple/iCloud/Microsoft name",
    }),
  ),
  updatedAt: t.String(),
});

export type EntryView = Static<typeof entry>;
export type ProbeVerdict = Static<typeof probeVerdict>;
/** Why an entry is not in subscriptions now; null: it is. */
export type EntryOut = EntryView["out"];

/** An id in a JSON body: a JSON number (a path's id is text, rowId). */
export const bodyId = wholeNumber({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });

export const entriesAnswer = t.Object({ success: t.Literal(true), entries: t.Array(entry) });
export const withEntry = t.Object({ success: t.Literal(true), entry });
export const entryParams = t.Object({ id: rowId });

/** A new entry for a node's inbound. */
export const newEntryBody = t.Object({
  nodeId: bodyId,
  inboundTag: t.String({ minLength: 1, maxLength: 64 }),
  ...settings,
});
/** A change to an entry: what is left out stays. */
export const settingsBody = t.Object(settings);
export const orderBody = t.Object({
  ids: t.Array(bodyId, { maxItems: 1000, description: "every entry, first to last" }),
});
/** One change to many entries: those named by id, or every one the filter matches. */
export const bulkBody = t.Object({
  ids: t.Optional(t.Array(bodyId, { maxItems: 1000 })),
  where: t.Optional(
    t.Object({
      security: t.Optional(t.String({ maxLength: 16 })),
      fingerprint: t.Optional(t.String({ maxLength: 32 })),
      protocol: t.Optional(t.String({ maxLength: 16 })),
      network: t.Optional(t.String({ maxLength: 16 })),
      nodeId: t.Optional(bodyId),
      tag: t.Optional(t.String({ maxLength: 32 })),
    }),
  ),
  changes: t.Object(settings),
});
