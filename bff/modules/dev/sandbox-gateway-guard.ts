import { timingSafeEqual } from "node:crypto";
import { t } from "elysia";
import { createSlowAnswers } from "../../adapters/sandbox/answer-delay";
import type { SandboxGateway } from "../../adapters/sandbox/gateway";
import type { AppContext } from "../../context";
import { AppError } from "../../platform/errors";
import { answerInEnglish } from "../../platform/request-language";
import { refuseWhileDown } from "./sandbox-outage";

export function requireSandbox(context: Pick<AppContext, "payments">): SandboxGateway {
  const sandbox = context.payments.sandbox;
  if (!sandbox) throw new AppError("not_found");
  return sandbox;
}

/** The gateway API checks HTTP Basic (Public ID : API secret) like the real one. */
function requireBasicAuth(context: Pick<AppContext, "config" | "payments">, request: Request): void {
  const expected = Buffer.from(
    `Basic ${Buffer.from(`${context.payments.gateway.publicId}:${context.config.cloudPaymentsApiSecret}`).toString("base64")}`,
  );
  const given = Buffer.from(request.headers.get("authorization") ?? "");
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw new AppError("gateway_credentials_wrong");
  }
}

/**
 * `JsonData`, as an object or as JSON text (client libraries send either); the sandbox
 * reads the receipt in it and refuses one that does not add up.
 */
export const jsonData = t.Optional(t.Union([t.String(), t.Object({}, { additionalProperties: true })]));

/**
 * One call of the sandbox gateway's server API: answered in English, after HTTP Basic, as
 * slowly as SANDBOX_LATENCY_MS and SANDBOX_JITTER_MS say. The handler also gets `answered`,
 * which resolves once the call's answer is given (refusals included), for work the bank
 * does after it answered (an SBP charge's settlement).
 */
export function gatewayGuard(context: Pick<AppContext, "config" | "payments" | "stopping">) {
  const slowly = createSlowAnswers(
    { latencyMs: context.config.sandboxLatencyMs, jitterMs: context.config.sandboxJitterMs },
    context.stopping,
  );
  return <Body>(handler: (sandbox: SandboxGateway, body: Body, answered: Promise<void>) => unknown) =>
    ({ request, body }: { request: Request; body: Body }) => {
      // The gateway's client is a program, as the real gateway's is: it reads English.
      answerInEnglish(request);
      const sandbox = requireSandbox(context);
      const answer = Promise.withResolvers<void>();
      const work = slowly(() => {
        requireBasicAuth(context, request);
        // An outage (POST /api/dev/sandbox/outage): a 503 with nothing done.
        refuseWhileDown(sandbox.outage, "cloudpayments");
        return handler(sandbox, body, answer.promise);
      });
      work.then(
        () => answer.resolve(),
        () => answer.resolve(),
      );
      return work;
    };
}

export type GatewayGuard = ReturnType<typeof gatewayGuard>;
