import { Elysia, t } from "elysia";
import type { AppContext } from "../../../context";
import { rowId } from "../../../platform/schemas";
import { operatorAuth } from "../../operators/operator-auth";
import { addEntry, changeEntries, editEntry, listEntries, reorderEntries } from "./panel-entries";
import { bodyId, entriesAnswer, entry, errors, settings } from "./panel-entries-model";

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
