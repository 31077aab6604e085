import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { errorResponse } from "../../platform/schemas";
import { eventBody, eventCounted } from "./model";
import { countEvent } from "./service";

/**
 * `POST /api/events {name}` (DESIGN §16): first-party counts of the spec's events, no session
 * and no visitor identity. The browser sends it with `sendBeacon`, a JSON Blob, same origin.
 */
export function analyticsModule(context: AppContext) {
  return new Elysia({ tags: ["analytics"] }).post(
    "/events",
    async ({ body, request }) => {
      await countEvent(context.database, body.name, context.clientAddress(request), context.clock.now());
      return { success: true as const };
    },
    {
      body: eventBody,
      detail: { summary: "Count one first-party event (go_support, purchase_started, purchase_completed)" },
      response: { 200: eventCounted, 400: errorResponse, 429: errorResponse },
    },
  );
}
