import { describe, expect, test } from "vitest";
import { apiOf, dataOf, identityOf, sessionOf } from "../../helpers/api";
import { makeTestApp } from "../../helpers/app";
import { type SignedIn, signIn } from "../../helpers/customers";
import { cards, type LedgerDelivery, ledger, order, payWithCard } from "../../helpers/payments";

type TestApp = Awaited<ReturnType<typeof makeTestApp>>;
type Answer = "no answer" | Response;

/**
 * Puts a stand-in in front of the shop's notification endpoints: the first sends of
 * `kind` get the answers given (a thrown error when "no answer"), later ones reach the shop.
 */
function interceptFirst(testApp: TestApp, kind: string, answers: (() => Answer)[]) {
  const { app, context } = testApp;
  let seen = 0;
  context.http.attachLoopback(async (request) => {
    if (new URL(request.url).pathname === `/api/payments/cloudpayments/${kind}`) {
      const answer = answers[seen++]?.();
      if (answer === "no answer") throw new Error("connection reset by peer");
      if (answer) return answer;
    }
    return app.handle(request);
  });
}

const statusOf = async (app: TestApp["app"], customer: SignedIn) =>
  (await dataOf(apiOf(app).profile.post(identityOf(customer), sessionOf(customer)))).userInfo
    .subscriptionStatus;

const sends = (notifications: LedgerDelivery[], kind: string) =>
  notifications
    .filter((sent) => sent.kind === kind)
    .map(({ attempt, status, code }) => ({ attempt, status, code }));

async function customerWithOrder(testApp: TestApp, email: string) {
  const customer = await signIn(testApp.app, email);
  return { customer, options: await order(testApp.app, customer, 1, 30) };
}

describe("the sandbox gateway delivers a notification again", () => {
  test("after a 5xx and after no answer, until the shop takes it", async () => {
    const testApp = await makeTestApp();
    const { customer, options } = await customerWithOrder(testApp, "redelivered-pay@example.com");
    interceptFirst(testApp, "pay", [
      () => new Response("Service Unavailable", { status: 503 }),
      () => "no answer",
    ]);
    expect((await payWithCard(testApp.app, options.invoiceId, cards.success)).success).toBe(true);
    expect(await statusOf(testApp.app, customer)).toBe("ACTIVE");

    const [entry] = await ledger(testApp.app, options.accountId);
    expect(sends(entry?.notifications ?? [], "check")).toEqual([{ attempt: 1, status: 200, code: 0 }]);
    expect(sends(entry?.notifications ?? [], "pay")).toEqual([
      { attempt: 1, status: 503, code: null },
      { attempt: 2, status: null, code: null },
      { attempt: 3, status: 200, code: 0 },
    ]);
    const pays = (entry?.notifications ?? []).filter((sent) => sent.kind === "pay");
    expect(pays[1]?.error).toContain("connection reset by peer");
  });

  test("a Refund answered non-zero (before its payment, DESIGN §12), until it is applied", async () => {
    const testApp = await makeTestApp();
    const { customer, options } = await customerWithOrder(testApp, "redelivered-refund@example.com");
    const paid = await payWithCard(testApp.app, options.invoiceId, cards.success);
    expect(await statusOf(testApp.app, customer)).toBe("ACTIVE");
    // The shop's answer to a refund it cannot place yet.
    interceptFirst(testApp, "refund", [() => Response.json({ code: 13 })]);
    const sandbox = testApp.context.payments.sandbox;
    if (!sandbox) throw new Error("the test app runs the sandbox gateway");
    const refund = await sandbox.refund({ TransactionId: Number(paid.transactionId), Amount: 1 });
    expect(refund.Success).toBe(true);
    expect(await statusOf(testApp.app, customer)).toBe("EXPIRED");

    const refundEntry = (await ledger(testApp.app, options.accountId)).find(
      (entry) => entry.kind === "refund",
    );
    expect(sends(refundEntry?.notifications ?? [], "refund")).toEqual([
      { attempt: 1, status: 200, code: 13 },
      { attempt: 2, status: 200, code: 0 },
    ]);
  });
});

describe("the sandbox gateway takes the shop's answer as final", () => {
  test("a 4xx is not sent again, nor is a Check's refusal", async () => {
    const testApp = await makeTestApp();
    const refused = await customerWithOrder(testApp, "refused-pay@example.com");
    interceptFirst(testApp, "pay", [() => Response.json({ message: "bad request" }, { status: 400 })]);
    expect((await payWithCard(testApp.app, refused.options.invoiceId, cards.success)).success).toBe(true);
    const [paid] = await ledger(testApp.app, refused.options.accountId);
    expect(sends(paid?.notifications ?? [], "pay")).toEqual([{ attempt: 1, status: 400, code: null }]);
    // The shop refused it, so it has not applied it: the bank's record says what happened.
    expect(await statusOf(testApp.app, refused.customer)).toBe("NOT_ACTIVE");

    const changed = await customerWithOrder(testApp, "changed-amount@example.com");
    const result = await payWithCard(testApp.app, changed.options.invoiceId, cards.success, 0.5);
    expect(result).toMatchObject({ success: false, checkCode: 12 });
    const [declined] = await ledger(testApp.app, changed.options.accountId);
    expect(sends(declined?.notifications ?? [], "check")).toEqual([{ attempt: 1, status: 200, code: 12 }]);
    expect(sends(declined?.notifications ?? [], "fail")).toEqual([{ attempt: 1, status: 200, code: 0 }]);
  });
});
