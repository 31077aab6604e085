import { Elysia } from "elysia";
import { probeAck, probeEntries, probeResults } from "../../../../../agent/contract/probe-api";
import { nodeEntries } from "../../../../../db/queries/entries";
import type { ProbeRow } from "../../../../../db/queries/probes";
import type { AppContext } from "../../../../context";
import { answerInEnglish } from "../../../../platform/request-language";
import { errorResponse } from "../../../../platform/schemas";
import { dialedEntries } from "../../entries/published-entries";
import { authorizeProbeCall } from "./probe-keys";
import { storeProbeResults } from "./probe-results";

const probeErrors = {
  400: errorResponse,
  401: errorResponse,
  403: errorResponse,
  409: errorResponse,
} as const;

/**
 * The calls of probe agents (agent/contract/probe-api.ts), each with `Authorization: Bearer
 * {PROBE_KEY}` and the agent's `X-Agent-Instance`: the entries to dial, and what it found.
 */
export function probeApiModule(context: Pick<AppContext, "database">) {
  const { database } = context;
  const callers = new WeakMap<Request, Promise<ProbeRow>>();
  const probeOf = (request: Request) => {
    let probe = callers.get(request);
    if (!probe) {
      answerInEnglish(request);
      probe = authorizeProbeCall(database, {
        authorization: request.headers.get("authorization"),
        instance: request.headers.get("x-agent-instance"),
      });
      callers.set(request, probe);
    }
    return probe;
  };
  return new Elysia({ prefix: "/probes", tags: ["probes"] })
    .onTransform(({ request }) => answerInEnglish(request))
    .macro({ probe: { resolve: async ({ request }) => ({ probe: await probeOf(request) }) } })
    .get(
      "/entries",
      async ({ probe, set }) => {
        // The probe's credential in clear: no cache on the way may keep it.
        set.headers["cache-control"] = "no-store";
        const entries = dialedEntries(await nodeEntries.published(database)).map((entry) => ({
          id: entry.id,
          name: entry.remark || entry.nodeName,
          address: entry.address,
          inbound: entry.inbound,
        }));
        return { credential: probe.credential, entries };
      },
      {
        probe: true,
        response: { 200: probeEntries, ...probeErrors },
        detail: {
          summary:
            "Every enabled entry of every enabled node as a client dials it, and the probe's own credential (probe agents)",
        },
      },
    )
    .post(
      "/results",
      async ({ probe, body }) => {
        await storeProbeResults(database, probe.id, body.results, Date.now());
        return { success: true as const };
      },
      {
        probe: true,
        body: probeResults,
        response: { 200: probeAck, ...probeErrors },
        detail: {
          summary: "A probe's round: whether each entry carried its request, and why not (probe agents)",
        },
      },
    );
}
