import { Elysia, t } from "elysia";
import type { AppContext } from "../../../context";
import { errorResponse, rowId } from "../../../platform/schemas";
import { operatorAuth } from "../../operators/operator-auth";
import { addNodeFromPanel, listNodes, rotateKeyOf, setDisabledOf } from "./panel-nodes";
import { node } from "./panel-nodes-model";

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
