import { Elysia } from "elysia";
import {
  allowListQuery,
  allowListResponse,
  nodeAck,
  nodeEvents,
  nodeEventsAck,
  nodeReport,
} from "../../../../agent/contract/node-api";
import type { AppContext } from "../../../context";
import { answerInEnglish } from "../../../platform/request-language";
import { errorResponse } from "../../../platform/schemas";
import { pollAllowList } from "../subscription/allowlist/allowlist-poll";
import { createChangeWatcher } from "../subscription/allowlist/change-watcher";
import { authorizeAgentCall } from "./node-agents";
import { storeNodeEvents } from "./node-events";
import { createIntakeLimit, type IntakeLimit, refusalPauseMs } from "./node-intake-limit";
import type { NodeIdentity } from "./node-keys";
import { storeNodeReport } from "./node-reports";

const nodeErrors = {
  400: errorResponse,
  401: errorResponse,
  403: errorResponse,
  409: errorResponse,
} as const;
const eventsErrors = { ...nodeErrors, 429: errorResponse } as const;

/**
 * The calls of the node agents (DESIGN §8), each with `Authorization: Bearer {NODE_KEY}` and
 * the agent's `X-Agent-Instance`: the allow-list (long-polled), the node's report of itself,
 * and its traffic and connection events. The long poll's 20 s fit in the server's 75 s idle limit (server.ts).
 * A call's node is known before its body is read, so a flood of events from one key is
 * refused (429, after a pause) without parsing a byte of it (`limit`: per node,
 * node-intake-limit.ts).
 */
export function nodeApiModule(
  context: Pick<AppContext, "config" | "database" | "clock" | "stopping" | "clientAddress">,
  limit: IntakeLimit = createIntakeLimit(),
) {
  const { config, database, clock, stopping, clientAddress } = context;
  const watcher = createChangeWatcher(database, stopping);
  // The key names an enabled node, and the caller is its one agent (node-agents.ts).
  const authorize = (request: Request) =>
    authorizeAgentCall(database, {
      authorization: request.headers.get("authorization"),
      instance: request.headers.get("x-agent-instance"),
      address: clientAddress(request),
    });
  // Each call's node, looked up once: before its body is read where it has one, else when resolved.
  const callers = new WeakMap<Request, Promise<NodeIdentity>>();
  const nodeOf = (request: Request) => {
    let node = callers.get(request);
    if (!node) {
      // A refusal here comes before the transform hook below: it goes to the agent's log too.
      answerInEnglish(request);
      node = authorize(request);
      callers.set(request, node);
    }
    return node;
  };
  return (
    new Elysia({ prefix: "/nodes", tags: ["nodes"] })
      // Before validation: a node agent's refusals go to its log, in English.
      .onTransform(({ request }) => answerInEnglish(request))
      .macro({
        node: {
          resolve: async ({ request }) => ({ node: await nodeOf(request) }),
        },
      })
      .get(
        "/allowlist",
        ({ query, request, set }) => {
          // Credentials in clear: no cache on the way may keep a copy.
          set.headers["cache-control"] = "no-store";
          return pollAllowList(database, watcher, clock, stopping, {
            since: Number(query.since ?? 0),
            waitSeconds: Number(query.wait ?? 0),
            recheck: () => authorize(request),
          });
        },
        {
          node: true,
          query: allowListQuery,
          response: { 200: allowListResponse, ...nodeErrors },
          detail: {
            summary:
              "A node's allow-list: whole (no since, or the log no longer reaches it) or the changes since a version; wait (s) long-polls for one",
          },
        },
      )
      .post(
        "/report",
        async ({ node, body }) => {
          await storeNodeReport(database, node, body);
          return { success: true as const };
        },
        {
          node: true,
          body: nodeReport,
          response: { 200: nodeAck, ...nodeErrors },
          detail: {
            summary: "A node reports its core, inbounds, public host and the allow-list version it holds",
          },
        },
      )
      .post(
        "/events",
        async ({ node, body }) => {
          limit.charge(node.id, body.traffic.length + body.connections.length, Date.now());
          return {
            success: true as const,
            ...(await storeNodeEvents(database, node, body, {
              productNow: clock.now(),
              linkGbps: config.nodeLinkGbps,
            })),
          };
        },
        {
          node: true,
          // Runs before the body is read; returning nothing leaves the reading to the JSON parser.
          parse: async ({ request }) => {
            const waitMs = limit.waitMs((await nodeOf(request)).id, Date.now());
            if (waitMs === 0) return;
            await Bun.sleep(Math.min(waitMs, refusalPauseMs));
            throw limit.refusal(waitMs);
          },
          body: nodeEvents,
          response: { 200: nodeEventsAck, ...eventsErrors },
          detail: {
            summary: "A node's batch of traffic per credential and connection events (the panel's logs)",
          },
        },
      )
  );
}
