import { Elysia } from "elysia";
import type { AppContext } from "../../../context";
import { panelErrors as errors } from "../../../platform/schemas";
import { actorOf, operatorAuth } from "../../operators/operator-auth";
import { addEntry, changeEntries, editEntry, listEntries, reorderEntries } from "./panel-entries";
import {
  bulkBody,
  entriesAnswer,
  entryParams,
  newEntryBody,
  orderBody,
  settingsBody,
  withEntry,
} from "./panel-entries-model";

/**
 * The Nodes screen's published entries (DESIGN §8), administrators only: list, add, edit,
 * reorder, and one change to many at once. Every change is audited.
 */
export function panelEntriesRoutes(context: AppContext) {
  return new Elysia().use(entryRoutes(context)).use(manyEntriesRoutes(context));
}

/** /entries and /entries/:id: the list, a new entry, a change to one. */
function entryRoutes(context: AppContext) {
  const { database, clock } = context;
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
        entry: await addEntry(database, body, clock.now(), actorOf(context, operator, request)),
      }),
      {
        operator: "admin",
        body: newEntryBody,
        response: { 200: withEntry, ...errors },
        detail: { summary: "A new entry for a node's inbound, last in the order (administrators)" },
      },
    )
    .patch(
      "/:id",
      async ({ params, body, operator, request }) => ({
        success: true as const,
        entry: await editEntry(database, params.id, body, clock.now(), actorOf(context, operator, request)),
      }),
      {
        operator: "admin",
        params: entryParams,
        body: settingsBody,
        response: { 200: withEntry, ...errors },
        detail: {
          summary:
            "Change an entry: what is left out stays, null gives a setting back to the inbound (administrators)",
        },
      },
    );
}

/** /entries/order and /entries/bulk: changes to many entries at once. */
function manyEntriesRoutes(context: AppContext) {
  const { database, clock } = context;
  return new Elysia({ prefix: "/entries" })
    .use(operatorAuth(context))
    .post(
      "/order",
      async ({ body, operator, request }) => ({
        success: true as const,
        entries: await reorderEntries(database, body.ids, clock.now(), actorOf(context, operator, request)),
      }),
      {
        operator: "admin",
        body: orderBody,
        response: { 200: entriesAnswer, ...errors },
        detail: { summary: "The order every subscription lists entries in (administrators)" },
      },
    )
    .post(
      "/bulk",
      async ({ body: { ids, where, changes }, operator, request }) => ({
        success: true as const,
        entries: await changeEntries(
          database,
          { ids, where },
          changes,
          clock.now(),
          actorOf(context, operator, request),
        ),
      }),
      {
        operator: "admin",
        body: bulkBody,
        response: { 200: entriesAnswer, ...errors },
        detail: {
          summary:
            "One change to many entries at once, audited once: those named by id, or every one the filter matches (e.g. security reality, fingerprint chrome → fingerprint firefox) (administrators)",
        },
      },
    );
}
