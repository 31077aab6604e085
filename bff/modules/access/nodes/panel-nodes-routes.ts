import { Elysia } from "elysia";
import type { AppContext } from "../../../context";
import { panelChangeErrors as errors } from "../../../platform/schemas";
import { actorOf, operatorAuth } from "../../operators/operator-auth";
import { addNodeFromPanel, listNodes, rotateKeyOf, setDisabledOf } from "./panel-nodes";
import { newNodeBody, nodeList, nodeParams, withKey, withNode } from "./panel-nodes-model";

/** The key is in the answer once: no cache on the way may keep it. */
const secretAnswer = { "cache-control": "no-store" };

/**
 * The Nodes screen's calls (DESIGN §8), administrators only, reading included: a node's
 * host and traffic are infrastructure, not customer support. Every change is audited
 * with who made it and from where; a key is in the answer once and stored only hashed.
 */
export function panelNodesRoutes(context: AppContext) {
  return new Elysia().use(nodeListRoutes(context)).use(oneNodeRoutes(context));
}

/** /nodes itself: every node, and a new one. */
function nodeListRoutes(context: AppContext) {
  const { database, clock } = context;
  return new Elysia({ prefix: "/nodes" })
    .use(operatorAuth(context))
    .get("", async () => ({ nodes: await listNodes(database, clock.now()) }), {
      operator: "admin",
      response: { 200: nodeList, ...errors },
      detail: {
        summary:
          "Every VPN node, by name: online or last seen, core, inbounds, credentials against the allow-list, sync lag, traffic today (administrators)",
      },
    })
    .post(
      "",
      ({ body, operator, request, set }) => {
        Object.assign(set.headers, secretAnswer);
        return addNodeFromPanel(database, body.name, clock.now(), actorOf(context, operator, request));
      },
      {
        operator: "admin",
        body: newNodeBody,
        response: { 200: withKey, ...errors },
        detail: {
          summary:
            "Add a node (administrators): its key is answered once; a name is 1–64 Latin letters, digits, . _ -, unique in any case",
        },
      },
    );
}

/** /nodes/:id/…: one node's key and whether it may work. */
function oneNodeRoutes(context: AppContext) {
  const { database, clock } = context;
  return new Elysia({ prefix: "/nodes/:id" })
    .use(operatorAuth(context))
    .post(
      "/rotateKey",
      ({ params, operator, request, set }) => {
        Object.assign(set.headers, secretAnswer);
        return rotateKeyOf(database, params.id, clock.now(), actorOf(context, operator, request));
      },
      {
        operator: "admin",
        params: nodeParams,
        response: { 200: withKey, ...errors },
        detail: {
          summary: "A new key for a node, answered once; the old one stops at once (administrators)",
        },
      },
    )
    .post(
      "/disable",
      ({ params, operator, request }) =>
        setDisabledOf(database, params.id, true, clock.now(), actorOf(context, operator, request)),
      {
        operator: "admin",
        params: nodeParams,
        response: { 200: withNode, ...errors },
        detail: { summary: "Disable a node: its key is refused from its next call (administrators)" },
      },
    )
    .post(
      "/enable",
      ({ params, operator, request }) =>
        setDisabledOf(database, params.id, false, clock.now(), actorOf(context, operator, request)),
      {
        operator: "admin",
        params: nodeParams,
        response: { 200: withNode, ...errors },
        detail: { summary: "Let a disabled node's key work again (administrators)" },
      },
    );
}
