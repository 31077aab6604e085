import { Elysia, t } from "elysia";
import type { AppContext } from "../../../context";
import { errorResponse, rowId } from "../../../platform/schemas";
import { operatorAuth } from "../../operators/operator-auth";
import { addNodeFromPanel, listNodes, rotateKeyOf, setDisabledOf } from "./panel-nodes";

const inbound = t.Object({
  tag: t.String(),
  protocol: t.String(),
  port: t.Number(),
  network: t.String(),
  security: t.String(),
});
const node = t.Object({
  id: t.Number(),
  name: t.String(),
  host: t.Nullable(t.String()),
  online: t.Boolean({ description: "Enabled and heard from within the last 30 s" }),
  lastSeenAt: t.Nullable(t.String({ description: "ISO 8601; null: never reported" })),
  core: t.Nullable(t.String()),
  coreVersion: t.Nullable(t.String()),
  coreState: t.Nullable(
    t.Union([t.Literal("up"), t.Literal("down")], {
      description:
        "The core's state as the agent last reported it: down when its API does not answer or refuses calls; null: never reported",
    }),
  ),
  inbounds: t.Array(inbound),
  credentials: t.Object({
    held: t.Number({ description: "Credentials the node's core holds, as it last reported" }),
    expected: t.Number({ description: "Credentials on the allow-list now" }),
  }),
  appliedVersion: t.Number(),
  syncLagSeconds: t.Nullable(
    t.Number({
      description:
        "How long the oldest allow-list change the node has not applied has waited; 0: up to date; null: its agent never connected",
    }),
  ),
  trafficToday: t.Object({ upload: t.Number(), download: t.Number() }),
  disabled: t.Boolean(),
  createdAt: t.String(),
  oldKeyLastUsedAt: t.Nullable(
    t.String({
      description:
        "When an agent last called with the key the last rotation replaced (ISO 8601): it still runs with it; null: none since",
    }),
  ),
  refusedAgent: t.Nullable(
    t.Object(
      {
        at: t.String({ description: "ISO 8601, the last refusal" }),
        address: t.Nullable(t.String({ description: "the address it called from" })),
      },
      { description: "A second agent with this node's key, refused within the last day; null: none" },
    ),
  ),
});
const withKey = t.Object({
  success: t.Literal(true),
  node,
  key: t.String({ description: "The node's NODE_KEY: shown this once, stored only hashed" }),
});
/** The key is in the answer once: no cache on the way may keep it. */
const secretAnswer = { "cache-control": "no-store" };
const errors = {
  400: errorResponse,
  401: errorResponse,
  403: errorResponse,
  404: errorResponse,
  409: errorResponse,
};
const params = t.Object({ id: rowId });

/**
 * The Nodes screen's calls (DESIGN §8), administrators only, reading included: a node's
 * host and traffic are infrastructure, not customer support. Every change is audited
 * with who made it and from where; a key is in the answer once and stored only hashed.
 */
export function panelNodesRoutes(context: AppContext) {
  const { database, clock } = context;
  const actorOf = (operator: { id: number }, request: Request) => ({
    id: operator.id,
    address: context.clientAddress(request),
  });
  return new Elysia({ prefix: "/nodes" })
    .use(operatorAuth(context))
    .get("", async () => ({ nodes: await listNodes(database, clock.now()) }), {
      operator: "admin",
      response: { 200: t.Object({ nodes: t.Array(node) }), ...errors },
      detail: {
        summary:
          "Every VPN node, by name: online or last seen, core, inbounds, credentials against the allow-list, sync lag, traffic today (administrators)",
      },
    })
    .post(
      "",
      ({ body, operator, request, set }) => {
        Object.assign(set.headers, secretAnswer);
        return addNodeFromPanel(database, body.name, clock.now(), actorOf(operator, request));
      },
      {
        operator: "admin",
        body: t.Object({ name: t.String({ maxLength: 256 }) }),
        response: { 200: withKey, ...errors },
        detail: {
          summary:
            "Add a node (administrators): its key is answered once; a name is 1–64 Latin letters, digits, . _ -, unique in any case",
        },
      },
    )
    .post(
      "/:id/rotateKey",
      ({ params, operator, request, set }) => {
        Object.assign(set.headers, secretAnswer);
        return rotateKeyOf(database, params.id, clock.now(), actorOf(operator, request));
      },
      {
        operator: "admin",
        params,
        response: { 200: withKey, ...errors },
        detail: {
          summary: "A new key for a node, answered once; the old one stops at once (administrators)",
        },
      },
    )
    .post(
      "/:id/disable",
      ({ params, operator, request }) =>
        setDisabledOf(database, params.id, true, clock.now(), actorOf(operator, request)),
      {
        operator: "admin",
        params,
        response: { 200: t.Object({ success: t.Literal(true), node }), ...errors },
        detail: { summary: "Disable a node: its key is refused from its next call (administrators)" },
      },
    )
    .post(
      "/:id/enable",
      ({ params, operator, request }) =>
        setDisabledOf(database, params.id, false, clock.now(), actorOf(operator, request)),
      {
        operator: "admin",
        params,
        response: { 200: t.Object({ success: t.Literal(true), node }), ...errors },
        detail: { summary: "Let a disabled node's key work again (administrators)" },
      },
    );
}
