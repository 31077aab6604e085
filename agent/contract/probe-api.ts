/**
 * The probe API (DESIGN §8), written once: what a probe agent (`AGENT_MODE=probe`) asks the
 * product and reports back. A probe sits where customers are (a Russian VPS, a mobile line)
 * and dials every published entry as a client app would, with the entry's own address, SNI
 * and fingerprint, so it sees what a censor between customers and nodes lets through.
 *
 * Every call carries `Authorization: Bearer {PROBE_KEY}` (made by `npm run operator -- probe
 * <name>` or in the panel) and `X-Agent-Instance: {UUID}`, with the node API's refusals:
 * 400 bad input, 401 unknown key, 403 disabled probe, 409 a second agent on one key, each
 * `{success: false, error: {code, message}}`.
 *
 * - `GET  /api/probes/entries`: every enabled entry of every enabled node, with the probe's
 *   own credential (on every node's allow-list while the probe is enabled: a probe uses no
 *   customer's slot). An entry the product already keeps out (its node down) is still sent:
 *   the probe is how it comes back.
 * - `POST /api/probes/results`: one result per entry checked, after each round. Two failures
 *   in a row from a probe mark an entry down for it; two successes mark it up again. A
 *   result marked `unsupported` (the probe's core cannot dial that entry) changes nothing.
 */
import { type Static, Type } from "@sinclair/typebox";
import { inboundReport } from "./node-api.ts";

/** At most this many entries are probed; the product never publishes more. */
export const maxProbeEntries = 500;

/** One entry to dial: its inbound's settings with the entry's own address, port, SNI, fingerprint and ALPN applied. */
export const probeEntry = Type.Object({
  id: Type.Integer({ minimum: 1, description: "the entry's id, named again in its result" }),
  name: Type.String({ maxLength: 200, description: "what the panel calls it, for the probe's log" }),
  address: Type.String({ minLength: 1, maxLength: 253, description: "the host a client dials" }),
  inbound: inboundReport,
});

export const probeEntries = Type.Object({
  credential: Type.String({
    minLength: 1,
    maxLength: 64,
    description: "the probe's VLESS/VMess id (a UUID)",
  }),
  entries: Type.Array(probeEntry, { maxItems: maxProbeEntries }),
});

export const probeResult = Type.Object({
  entryId: Type.Integer({ minimum: 1 }),
  ok: Type.Boolean({ description: "the target's known answer came back through the entry" }),
  latencyMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 600_000 })),
  error: Type.Optional(
    Type.String({
      maxLength: 300,
      description: "why it failed, as the probe saw it (refused, timed out, TLS, …)",
    }),
  ),
  unsupported: Type.Optional(
    Type.Literal(true, {
      description:
        "the probe's core cannot dial the entry as client apps do (REALITY, uTLS or XHTTP on V2Ray 4): no verdict, the entry's state is left as it is",
    }),
  ),
});

export const probeResults = Type.Object({
  results: Type.Array(probeResult, { maxItems: maxProbeEntries }),
});

export const probeAck = Type.Object({ success: Type.Literal(true) });

export type ProbeEntry = Static<typeof probeEntry>;
export type ProbeEntries = Static<typeof probeEntries>;
export type ProbeResult = Static<typeof probeResult>;
export type ProbeResults = Static<typeof probeResults>;
