import { Elysia, t } from "elysia";
import type { AppContext } from "../../../context";
import { errorResponse, rowId } from "../../../platform/schemas";
import { operatorAuth } from "../../operators/operator-auth";
import { alpnValues, fingerprints } from "./entry-rules";
import { addEntry, changeEntries, editEntry, listEntries, reorderEntries } from "./panel-entries";

/**
 * A row id in a JSON body: a number, as the panel's typed client sends it. `rowId` reads the
 * decimal text of a path, and in a body it refused every number the client sent.
 */
const bodyId = t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });

const nullableText = (maxLength: number) => t.Optional(t.Nullable(t.String({ maxLength })));
const fingerprint = t.Union(fingerprints.map((name) => t.Literal(name)));

/** What an operator may set on an entry; null gives a setting back to the inbound. */
const settings = {
  address: nullableText(253),
  port: t.Optional(t.Nullable(t.Integer({ minimum: 1, maximum: 65535 }))),
  sni: nullableText(253),
  fingerprint: t.Optional(t.Nullable(fingerprint)),
  alpn: t.Optional(
    t.Nullable(t.Array(t.Union(alpnValues.map((value) => t.Literal(value))), { maxItems: 3 })),
  ),
  path: nullableText(256),
  hostHeader: nullableText(253),
  serviceName: nullableText(128),
  remark: t.Optional(t.String({ maxLength: 64 })),
  tags: t.Optional(t.Array(t.String({ maxLength: 32 }), { maxItems: 16 })),
  tariffs: t.Optional(
    t.Array(t.Integer(), {
      maxItems: 4,
      description: "tariff months the entry is for (1, 3, 6, 12); empty: everyone",
    }),
  ),
  enabled: t.Optional(t.Boolean()),
};

const probeVerdict = t.Object({
  probe: t.String(),
  up: t.Boolean(),
  since: t.String({ description: "ISO 8601: since when this probe finds it up, or down" }),
  checkedAt: t.String(),
  latencyMs: t.Nullable(t.Number()),
  lastError: t.Nullable(t.String()),
  lastErrorAt: t.Nullable(t.String()),
});

const entry = t.Object({
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
      protocol: t.Union([t.Literal("vless"), t.Literal("vmess")]),
      port: t.Number(),
      network: t.Union([
        t.Literal("tcp"),
        t.Literal("ws"),
        t.Literal("grpc"),
        t.Literal("xhttp"),
        t.Literal("httpupgrade"),
      ]),
      security: t.Union([t.Literal("none"), t.Literal("tls"), t.Literal("reality")]),
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

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };
const entriesAnswer = t.Object({ success: t.Literal(true), entries: t.Array(entry) });

/**
 * The Nodes screen's published entries (DESIGN §8), administrators only: list, add, edit,
 * reorder, and one change to many at once. Every change is audited.
 */
export function panelEntriesRoutes(context: AppContext) {
  const { database, clock } = context;
  const actorOf = (operator: { id: number }, request: Request) => ({
    id: operator.id,
    address: context.clientAddress(request),
  });
  return new Elysia({ prefix: "/entries" })
    .use(operatorAuth(context))
    .get("", async () => ({ success: true as const, entries: await listEntries(database) }), {
      operator: "admin",
      response: { 200: entriesAnswer, ...errors },
      detail: {
        summary:
          "Every published entry in the operator's order, with why it is out of subscriptions, each probe's verdict and its node's connection success (administrators)",
      },
    })
    .post(
      "",
      async ({ body, operator, request }) => ({
        success: true as const,
        entry: await addEntry(database, body, clock.now(), actorOf(operator, request)),
      }),
      {
        operator: "admin",
        body: t.Object({
          nodeId: bodyId,
          inboundTag: t.String({ minLength: 1, maxLength: 64 }),
          ...settings,
        }),
        response: { 200: t.Object({ success: t.Literal(true), entry }), ...errors },
        detail: { summary: "A new entry for a node's inbound, last in the order (administrators)" },
      },
    )
    .patch(
      "/:id",
      async ({ params, body, operator, request }) => ({
        success: true as const,
        entry: await editEntry(database, params.id, body, clock.now(), actorOf(operator, request)),
      }),
      {
        operator: "admin",
        params: t.Object({ id: rowId }),
        body: t.Object(settings),
        response: { 200: t.Object({ success: t.Literal(true), entry }), ...errors },
        detail: {
          summary:
            "Change an entry: what is left out stays, null gives a setting back to the inbound (administrators)",
        },
      },
    )
    .post(
      "/order",
      async ({ body, operator, request }) => ({
        success: true as const,
        entries: await reorderEntries(database, body.ids, clock.now(), actorOf(operator, request)),
      }),
      {
        operator: "admin",
        body: t.Object({
          ids: t.Array(bodyId, { maxItems: 1000, description: "every entry, first to last" }),
        }),
        response: { 200: entriesAnswer, ...errors },
        detail: { summary: "The order every subscription lists entries in (administrators)" },
      },
    )
    .post(
      "/bulk",
      async ({ body, operator, request }) => ({
        success: true as const,
        entries: await changeEntries(
          database,
          { ids: body.ids, where: body.where },
          body.changes,
          clock.now(),
          actorOf(operator, request),
        ),
      }),
      {
        operator: "admin",
        body: t.Object({
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
        }),
        response: { 200: entriesAnswer, ...errors },
        detail: {
          summary:
            "One change to many entries at once, audited once: those named by id, or every one the filter matches (e.g. security reality, fingerprint chrome → fingerprint firefox) (administrators)",
        },
      },
    );
}
