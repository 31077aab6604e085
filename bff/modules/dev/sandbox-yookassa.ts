import { t } from "elysia";
import type { ApiAnswer, PostPath } from "../../adapters/yookassa-sandbox/api";
import { errorAnswer } from "../../adapters/yookassa-sandbox/api";
import type { AppContext } from "../../context";
import { demoOnly } from "../../platform/demo-only";
import { answerInEnglish } from "../../platform/request-language";
import { checkoutRoutes } from "./sandbox-yookassa-checkout";
import { requireYooKassaSandbox, yooKassaGuard } from "./sandbox-yookassa-guard";

/** A POST's JSON body, or undefined when it is none (YooKassa answers that with a 400). */
async function jsonBody(request: Request): Promise<unknown> {
  try {
    return await request.json();
  } catch {
    return undefined;
  }
}

const readOnly = (answer: ApiAnswer) => ({ answer: () => answer, afterwards: async () => {} });

/**
 * The YooKassa sandbox's API at /api/dev/sandbox/yookassa (DESIGN §6): YooKassa's own
 * paths and shapes, so `POST /v3/payments` is `{origin}/api/dev/sandbox/yookassa/v3/payments`
 * and any YooKassa client whose base URL can be set works against it unchanged. Bodies are
 * read here, not by the framework, so a malformed one gets YooKassa's error object.
 */
export function yooKassaSandboxModule(context: Pick<AppContext, "config" | "payments" | "stopping">) {
  const guarded = yooKassaGuard(context);
  const post =
    (path: PostPath) =>
    async ({ request }: { request: Request }) => {
      answerInEnglish(request);
      const body = await jsonBody(request);
      const key = request.headers.get("idempotence-key");
      return guarded(request, (sandbox, answered) =>
        body === undefined
          ? readOnly(errorAnswer(400, "invalid_request", "The request body must be JSON.", "body"))
          : sandbox.api.post(path, key, body, answered),
      );
    };
  const hooks = (summary: string, description: string) => ({
    parse: "none" as const,
    detail: { summary: `SANDBOX YooKassa: ${summary}`, description },
  });
  return demoOnly(context, "/dev/sandbox/yookassa")
    .post(
      "/v3/payments",
      post("/v3/payments"),
      hooks(
        "create a payment",
        "HTTP Basic (shop id : secret key) and an Idempotence-Key (at most 64 characters, honoured 24 hours on the app's clock; the same key with other data is refused). A redirect (card) or qr (SBP) confirmation, or a saved payment_method_id to charge; receipt, metadata, save_payment_method as YooKassa takes them.",
      ),
    )
    .get(
      "/v3/payments",
      ({ request }) => {
        answerInEnglish(request);
        const query = new URL(request.url).searchParams;
        return guarded(request, (sandbox) => readOnly(sandbox.api.listPayments(query)));
      },
      {
        // Read from the URL as YooKassa's dotted names stand (created_at.gte); listed for the document.
        query: t.Object({
          "created_at.gte": t.Optional(t.String({ maxLength: 64 })),
          "created_at.gt": t.Optional(t.String({ maxLength: 64 })),
          "created_at.lte": t.Optional(t.String({ maxLength: 64 })),
          "created_at.lt": t.Optional(t.String({ maxLength: 64 })),
          "captured_at.gte": t.Optional(t.String({ maxLength: 64 })),
          "captured_at.gt": t.Optional(t.String({ maxLength: 64 })),
          "captured_at.lte": t.Optional(t.String({ maxLength: 64 })),
          "captured_at.lt": t.Optional(t.String({ maxLength: 64 })),
          status: t.Optional(t.String({ maxLength: 32 })),
          payment_method: t.Optional(t.String({ maxLength: 32 })),
          limit: t.Optional(t.String({ maxLength: 8 })),
          cursor: t.Optional(t.String({ maxLength: 256 })),
        }),
        detail: {
          summary: "SANDBOX YooKassa: the list of payments",
          description:
            "Newest first, filtered by created_at and captured_at (gte, gt, lte, lt: ISO 8601), status and payment_method; `limit` 1–100 (10), `next_cursor` while more follow.",
        },
      },
    )
    .get(
      "/v3/payments/:id",
      ({ request, params }) => {
        answerInEnglish(request);
        return guarded(request, (sandbox) => readOnly(sandbox.api.getPayment(params.id)));
      },
      {
        params: t.Object({ id: t.String({ maxLength: 64 }) }),
        detail: { summary: "SANDBOX YooKassa: a payment" },
      },
    )
    .post(
      "/v3/refunds",
      post("/v3/refunds"),
      hooks(
        "refund a payment",
        "HTTP Basic and an Idempotence-Key, as for payments; with the refund's receipt.",
      ),
    )
    .get(
      "/v3/refunds/:id",
      ({ request, params }) => {
        answerInEnglish(request);
        return guarded(request, (sandbox) => readOnly(sandbox.api.getRefund(params.id)));
      },
      {
        params: t.Object({ id: t.String({ maxLength: 64 }) }),
        detail: { summary: "SANDBOX YooKassa: a refund" },
      },
    )
    .use(checkoutRoutes(context))
    .get("/ledger", ({ query }) => requireYooKassaSandbox(context).entries(query.accountId), {
      query: t.Object({ accountId: t.Optional(t.String({ maxLength: 256 })) }),
      detail: {
        summary: "SANDBOX YooKassa: every payment and refund it made",
        description:
          "Each with its receipt (YooKassa's receipt object as sent), method, saved method, refunds and every notification send with the shop's answer; times on the test clock.",
      },
    })
    .post(
      "/faults",
      ({ body }) => {
        const { faults } = requireYooKassaSandbox(context);
        faults.arm(
          {
            kind: body.kind,
            isWorkDone: body.isWorkDone ?? true,
            holdMs: body.holdMs ?? 1000,
            ...(body.method ? { method: body.method } : {}),
          },
          body.count,
        );
        return { armed: faults.armedCount };
      },
      {
        body: t.Object({
          kind: t.Union([t.Literal("error"), t.Literal("timeout"), t.Literal("busy")]),
          count: t.Integer({ minimum: 1, maximum: 100 }),
          isWorkDone: t.Optional(t.Boolean()),
          holdMs: t.Optional(t.Integer({ minimum: 0, maximum: 60_000 })),
          method: t.Optional(t.Union([t.Literal("GET"), t.Literal("POST")])),
        }),
        detail: {
          summary: "SANDBOX YooKassa: fail its next calls",
          description:
            "The next `count` API calls (or only POSTs or GETs) fail: error (HTTP 500), timeout (no answer for holdMs, then a 500), busy (HTTP 429, nothing done). With isWorkDone (the default; not for busy) a POST is done first and only its answer is lost.",
        },
      },
    )
    .delete(
      "/faults",
      () => {
        requireYooKassaSandbox(context).faults.clear();
        return { armed: 0 };
      },
      { detail: { summary: "SANDBOX YooKassa: disarm every fault" } },
    )
    .get(
      "/settled",
      async () => {
        await requireYooKassaSandbox(context).settled();
        return { isSettled: true };
      },
      {
        detail: {
          summary:
            "SANDBOX YooKassa: wait until every SBP autopay charge answered pending is decided and told",
        },
      },
    );
}
