import type { Database } from "bun:sqlite";
import { yooKassaLedgerRefunds } from "../../../db/queries/yookassa-ledger";
import { type ApiAnswer, errorAnswer } from "./api-answers";
import type { Idempotence } from "./idempotence";
import { longestKey } from "./idempotence";
import { refundObject } from "./objects";
import { listPayments } from "./payment-list";
import type { createPaymentDesk } from "./payments";
import type { createRefundDesk } from "./refunds";
import { isProblem, type Problem, readPaymentRequest, readRefundRequest } from "./requests";

export { type ApiAnswer, errorAnswer } from "./api-answers";

const invalid = (problem: Problem) =>
  errorAnswer(400, "invalid_request", problem.description, problem.parameter);
const notFound = (what: string) => errorAnswer(404, "not_found", `No ${what} has this id.`);

export type PostPath = "/v3/payments" | "/v3/refunds";

/**
 * The sandbox's API behind its routes: each POST read as YooKassa reads it, under its
 * Idempotence-Key (required, at most 64 characters, honoured 24 hours), made or refused,
 * and answered with the object as it stands. `afterwards` is the bank's work once it has
 * made the object (its notifications), which the route waits for before answering.
 */
export function createSandboxApi(bank: {
  ledger: Database;
  idempotence: Idempotence;
  payments: ReturnType<typeof createPaymentDesk>;
  refunds: ReturnType<typeof createRefundDesk>;
  paymentView: (id: string) => { id: string } | undefined;
}) {
  const { ledger, idempotence } = bank;
  const viewOf = (path: PostPath, id: string) =>
    path === "/v3/payments" ? bank.paymentView(id) : refundView(id);
  const refundView = (id: string) => {
    const refund = yooKassaLedgerRefunds.byId(ledger, id);
    return refund && refundObject(refund);
  };
  const nothing = async () => {};

  return {
    /** Synchronous up to `afterwards`: the key is kept in the same step as the work. */
    post(
      path: PostPath,
      key: string | null,
      body: unknown,
      answered: Promise<unknown>,
    ): { answer: () => ApiAnswer; afterwards: () => Promise<void> } {
      const refused = (answer: ApiAnswer) => ({ answer: () => answer, afterwards: nothing });
      if (!key)
        return refused(
          errorAnswer(400, "invalid_request", "Idempotence-Key header is required.", "Idempotence-Key"),
        );
      if (key.length > longestKey)
        return refused(
          errorAnswer(
            400,
            "invalid_request",
            `Idempotence-Key is at most ${longestKey} characters.`,
            "Idempotence-Key",
          ),
        );
      const reading = idempotence.read(key, path, body);
      if (reading.kind === "conflict")
        return refused(
          errorAnswer(
            400,
            "invalid_request",
            "This Idempotence-Key was used with other request data: use a new key for a new request.",
            "Idempotence-Key",
          ),
        );
      if (reading.kind === "repeat")
        return { answer: () => ({ status: 200, body: viewOf(path, reading.objectId) }), afterwards: nothing };
      const request = path === "/v3/payments" ? readPaymentRequest(body) : readRefundRequest(body);
      if (isProblem(request)) return refused(invalid(request));
      const made =
        "paymentId" in request ? bank.refunds.create(request) : bank.payments.create(request, answered);
      if (isProblem(made)) return refused(invalid(made));
      idempotence.keep(key, path, reading.digest, made.id);
      return { answer: () => ({ status: 200, body: viewOf(path, made.id) }), afterwards: made.afterwards };
    },

    getPayment(id: string): ApiAnswer {
      const object = bank.paymentView(id);
      return object ? { status: 200, body: object } : notFound("payment");
    },

    /** GET /v3/payments: a page of the payments made in a time range (payment-list.ts). */
    listPayments: (query: URLSearchParams): ApiAnswer => listPayments(ledger, bank.paymentView, query),

    getRefund(id: string): ApiAnswer {
      const object = refundView(id);
      return object ? { status: 200, body: object } : notFound("refund");
    },
  };
}

export type SandboxApi = ReturnType<typeof createSandboxApi>;
