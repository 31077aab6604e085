import { TypeCompiler } from "@sinclair/typebox/compiler";
import { type ProbeEntries, type ProbeResult, probeAck, probeEntries } from "../contract/probe-api.ts";
import { type Checker, failure, firstMismatch, ProductError } from "../product-api.ts";

/** The product's probe API as the probe agent uses it (DESIGN §8, contract/probe-api.ts). */
export type ProbeProductApi = {
  entries(): Promise<ProbeEntries>;
  results(results: ProbeResult[]): Promise<void>;
};

const entriesAnswer = TypeCompiler.Compile(probeEntries);
const ackAnswer = TypeCompiler.Compile(probeAck);

const probeHints: Record<number, string> = {
  401: " (check PROBE_KEY)",
  403: " (the probe is disabled in the panel)",
  409: " (another probe agent runs with this PROBE_KEY)",
};

async function jsonOf(response: Response, what: string): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    throw new ProductError(`${what} answered something that is not JSON`);
  }
}

function check(what: string, checker: Checker, body: unknown): void {
  if (!checker.Check(body))
    throw new ProductError(
      `${what} answered something that is not the probe API's (${firstMismatch(checker, body)}).`,
    );
}

/**
 * The probe API over HTTP, every answer checked against the contract before anything acts
 * on it. Every call names this agent's instance (`X-Agent-Instance`, kept in AGENT_STATE):
 * one probe key is one agent, as one node key is.
 */
export function probeProductApi(productUrl: string, probeKey: string, instanceId: string): ProbeProductApi {
  const headers = {
    authorization: `Bearer ${probeKey}`,
    "content-type": "application/json",
    "x-agent-instance": instanceId,
  };
  return {
    async entries() {
      const what = "GET /api/probes/entries";
      const response = await fetch(`${productUrl}/api/probes/entries`, {
        headers,
        signal: AbortSignal.timeout(15_000),
      });
      if (!response.ok) throw await failure(response, what, probeHints);
      const body = await jsonOf(response, what);
      check(what, entriesAnswer, body);
      return body as ProbeEntries;
    },
    async results(results) {
      const what = "POST /api/probes/results";
      const response = await fetch(`${productUrl}/api/probes/results`, {
        method: "POST",
        headers,
        body: JSON.stringify({ results }),
        signal: AbortSignal.timeout(15_000),
      });
      if (!response.ok) throw await failure(response, what, probeHints);
      check(what, ackAnswer, await jsonOf(response, what));
    },
  };
}
