import { Elysia, t } from "elysia";
import type { AppContext } from "../../../../context";
import { errorResponse, rowId } from "../../../../platform/schemas";
import { operatorAuth } from "../../../operators/operator-auth";
import { addProbeFromPanel, listProbes, rotateProbeKeyOf, setProbeDisabledOf } from "./panel-probes";
import { probe } from "./panel-probes-model";

const withKey = t.Object({
  success: t.Literal(true),
  probe,
  key: t.String({ description: "The probe's PROBE_KEY: shown this once, stored only hashed" }),
});
const withProbe = t.Object({ success: t.Literal(true), probe });
const errors = {
  400: errorResponse,
  401: errorResponse,
  403: errorResponse,
  404: errorResponse,
  409: errorResponse,
};
const params = t.Object({ id: rowId });
/** The key is in the answer once: no cache on the way may keep it. */
const secretAnswer = { "cache-control": "no-store" };

/** The Nodes screen's probe agents (DESIGN §8), administrators only; every change audited. */
export function panelProbesRoutes(context: AppContext) {
  const { database, clock } = context;
  const actorOf = (operator: { id: number }, request: Request) => ({
    id: operator.id,
    address: context.clientAddress(request),
  });
  return new Elysia({ prefix: "/probes" })
    .use(operatorAuth(context))
    .get("", async () => ({ probes: await listProbes(database) }), {
      operator: "admin",
      response: { 200: t.Object({ probes: t.Array(probe) }), ...errors },
      detail: { summary: "Every probe agent: reporting or last seen (administrators)" },
    })
    .post(
      "",
      ({ body, operator, request, set }) => {
        Object.assign(set.headers, secretAnswer);
        return addProbeFromPanel(database, body.name, clock.now(), actorOf(operator, request));
      },
      {
        operator: "admin",
        body: t.Object({ name: t.String({ maxLength: 256 }) }),
        response: { 200: withKey, ...errors },
        detail: {
          summary:
            "Add a probe agent (administrators): its key is answered once; its credential goes on every node",
        },
      },
    )
    .post(
      "/:id/rotateKey",
      ({ params, operator, request, set }) => {
        Object.assign(set.headers, secretAnswer);
        return rotateProbeKeyOf(database, params.id, clock.now(), actorOf(operator, request));
      },
      {
        operator: "admin",
        params,
        response: { 200: withKey, ...errors },
        detail: {
          summary: "A new key for a probe, answered once; the old one stops at once (administrators)",
        },
      },
    )
    .post(
      "/:id/disable",
      ({ params, operator, request }) =>
        setProbeDisabledOf(database, params.id, true, clock.now(), actorOf(operator, request)),
      {
        operator: "admin",
        params,
        response: { 200: withProbe, ...errors },
        detail: {
          summary: "Disable a probe: its key is refused, its credential leaves every node (administrators)",
        },
      },
    )
    .post(
      "/:id/enable",
      ({ params, operator, request }) =>
        setProbeDisabledOf(database, params.id, false, clock.now(), actorOf(operator, request)),
      {
        operator: "admin",
        params,
        response: { 200: withProbe, ...errors },
        detail: { summary: "Let a disabled probe work again (administrators)" },
      },
    );
}
