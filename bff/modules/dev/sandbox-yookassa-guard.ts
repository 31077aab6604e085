import { timingSafeEqual } from "node:crypto";
import { createSlowAnswers } from "../../adapters/sandbox/answer-delay";
import { type ApiAnswer, errorAnswer } from "../../adapters/yookassa-sandbox/api";
import type { SandboxFault } from "../../adapters/yookassa-sandbox/faults";
import type { YooKassaSandbox } from "../../adapters/yookassa-sandbox/sandbox";
import type { AppContext } from "../../context";
import { AppError } from "../../platform/errors";

export function requireYooKassaSandbox(context: Pick<AppContext, "payments">): YooKassaSandbox {
  const sandbox = context.payments.yookassa?.sandbox;
  if (!sandbox) throw new AppError("not_found");
  return sandbox;
}

/** An answer as YooKassa gives it: JSON, its status. */
export const jsonResponse = (answer: ApiAnswer) =>
  new Response(JSON.stringify(answer.body), {
    status: answer.status,
    headers: { "content-type": "application/json; charset=utf-8" },
  });

/** HTTP Basic with exactly the shop id and secret key the sandbox was made with. */
function isShopsPair(sandbox: YooKassaSandbox, request: Request): boolean {
  const expected = Buffer.from(
    `Basic ${Buffer.from(`${sandbox.shopId}:${sandbox.secretKey}`).toString("base64")}`,
  );
  const given = Buffer.from(request.headers.get("authorization") ?? "");
  return expected.length === given.length && timingSafeEqual(expected, given);
}

const faultAnswer = (fault: SandboxFault): ApiAnswer =>
  fault.kind === "busy"
    ? errorAnswer(429, "too_many_requests", "Too many requests: wait and send it again.")
    : errorAnswer(
        500,
        "internal_server_error",
        "Internal server error: the outcome is unknown, send the same request again.",
      );

/**
 * One call of the sandbox's YooKassa API, as YooKassa answers it: HTTP Basic first
 * (401 invalid_credentials), then any fault a test armed, then the work and its answer,
 * as slowly as SANDBOX_LATENCY_MS and SANDBOX_JITTER_MS say. `work` gets `answered`, which
 * resolves once the answer is given (an SBP autopay charge is decided after it), and
 * returns the answer with what the bank does before giving it (its notifications).
 */
export function yooKassaGuard(context: Pick<AppContext, "config" | "payments" | "stopping">) {
  const slowly = createSlowAnswers(
    { latencyMs: context.config.sandboxLatencyMs, jitterMs: context.config.sandboxJitterMs },
    context.stopping,
  );
  return async (
    request: Request,
    work: (
      sandbox: YooKassaSandbox,
      answered: Promise<void>,
    ) => { answer: () => ApiAnswer; afterwards: () => Promise<void> },
  ): Promise<Response> => {
    const sandbox = requireYooKassaSandbox(context);
    const answered = Promise.withResolvers<void>();
    try {
      return await slowly(async () => {
        if (!isShopsPair(sandbox, request))
          return jsonResponse(
            errorAnswer(401, "invalid_credentials", "Login fails: check the shop id and the secret key."),
          );
        // An outage (POST /api/dev/sandbox/outage): every call a 503, nothing done.
        if (sandbox.outage.isDown)
          return jsonResponse(
            errorAnswer(
              503,
              "service_unavailable",
              "Service unavailable: send the same request again later.",
            ),
          );
        const fault = sandbox.faults.take(request.method === "GET" ? "GET" : "POST");
        if (fault && !fault.isWorkDone) {
          if (fault.kind === "timeout") await Bun.sleep(fault.holdMs);
          return jsonResponse(faultAnswer(fault));
        }
        const done = work(sandbox, answered.promise);
        await done.afterwards();
        if (fault?.kind === "timeout") await Bun.sleep(fault.holdMs);
        // The work is done and in the ledger; only its answer is lost.
        if (fault) return jsonResponse(faultAnswer(fault));
        return jsonResponse(done.answer());
      });
    } finally {
      answered.resolve();
    }
  };
}
