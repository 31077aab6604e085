import { Elysia } from "elysia";
import type { AppContext } from "../../../../context";
import { panelChangeErrors as errors } from "../../../../platform/schemas";
import { actorOf, operatorAuth } from "../../../operators/operator-auth";
import { addProbeFromPanel, listProbes, rotateProbeKeyOf, setProbeDisabledOf } from "./panel-probes";
import { newProbeBody, probeList, probeParams, withKey, withProbe } from "./panel-probes-model";

/** The key is in the answer once: no cache on the way may keep it. */
const secretAnswer = { "cache-control": "no-store" };

/** The Nodes screen's probe agents (DESIGN §8), administrators only; every change audited. */
export function panelProbesRoutes(context: AppContext) {
  return new Elysia().use(probeListRoutes(context)).use(oneProbeRoutes(context));
}

/** /probes itself: every probe agent, and a new one. */
function probeListRoutes(context: AppContext) {
  const { database, clock } = context;
  return new Elysia({ prefix: "/probes" })
    .use(operatorAuth(context))
    .get("", async () => ({ probes: await listProbes(database) }), {
      operator: "admin",
      response: { 200: probeList, ...errors },
      detail: { summary: "Every probe agent: reporting or last seen (administrators)" },
    })
    .post(
      "",
      ({ body, operator, request, set }) => {
        Object.assign(set.headers, secretAnswer);
        return addProbeFromPanel(database, body.name, clock.now(), actorOf(context, operator, request));
      },
      {
        operator: "admin",
        body: newProbeBody,
        response: { 200: withKey, ...errors },
        detail: {
          summary:
            "Add a probe agent (administrators): its key is answered once; its credential goes on every node",
        },
      },
    );
}

/** /probes/:id/…: one probe's key and whether it may work. */
function oneProbeRoutes(context: AppContext) {
  const { database, clock } = context;
  return new Elysia({ prefix: "/probes/:id" })
    .use(operatorAuth(context))
    .post(
      "/rotateKey",
      ({ params, operator, request, set }) => {
        Object.assign(set.headers, secretAnswer);
        return rotateProbeKeyOf(database, params.id, clock.now(), actorOf(context, operator, request));
      },
      {
        operator: "admin",
        params: probeParams,
        response: { 200: withKey, ...errors },
        detail: {
          summary: "A new key for a probe, answered once; the old one stops at once (administrators)",
        },
      },
    )
    .post(
      "/disable",
      ({ params, operator, request }) =>
        setProbeDisabledOf(database, params.id, true, clock.now(), actorOf(context, operator, request)),
      {
        operator: "admin",
        params: probeParams,
        response: { 200: withProbe, ...errors },
        detail: {
          summary: "Disable a probe: its key is refused, its credential leaves every node (administrators)",
        },
      },
    )
    .post(
      "/enable",
      ({ params, operator, request }) =>
        setProbeDisabledOf(database, params.id, false, clock.now(), actorOf(context, operator, request)),
      {
        operator: "admin",
        params: probeParams,
        response: { 200: withProbe, ...errors },
        detail: { summary: "Let a disabled probe work again (administrators)" },
      },
    );
}
