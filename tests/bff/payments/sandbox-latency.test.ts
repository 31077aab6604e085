import { describe, expect, test } from "vitest";
import type { GatewayAnswer } from "../../../bff/adapters/cloudpayments/client";
import type { ContextOverrides } from "../../../bff/context";
import { makeTestApp } from "../../helpers/app";
import { signIn } from "../../helpers/customers";
import { cards, ledger, order, payWithCard } from "../../helpers/payments";

// Issue 24, DESIGN §10: with SANDBOX_LATENCY_MS and SANDBOX_JITTER_MS the sandbox bank
// answers every call of its server API latency ± jitter after it did the work, like a real
// bank: the product's own calls (through the loopback) wait that long, the charge is in the
// ledger while its answer is on the way, and calls wait side by side, not one after another.
// Only lower bounds on the delay are asserted; what runs at once is shown by order.

type TestApp = Awaited<ReturnType<typeof makeTestApp>>;

/**
 * A bank as slow as a real one, and all events in the order they happened: `worked` when
 * the shop has answered the bank's Pay notification of an invoice (the charge is done and
 * in the ledger, and all the bank has left to do is answer), whatever the test pushes itself.
 */
async function slowBank(environment: Record<string, string>, overrides: ContextOverrides = {}) {
  const testApp = await makeTestApp(environment, overrides);
  const events: string[] = [];
  const workedAt = new Map<string, number>();
  const waiting: { invoiceId: string; resolve: () => void }[] = [];
  const deliver = testApp.context.http.fetch.bind(testApp.context.http);
  testApp.context.http.fetch = async (request) => {
    const isPay = new URL(request.url).pathname === "/api/payments/cloudpayments/pay";
    const invoiceId = isPay ? new URLSearchParams(await request.clone().text()).get("InvoiceId") : null;
    const response = await deliver(request);
    if (invoiceId !== null) {
      events.push(`worked ${invoiceId}`);
      workedAt.set(invoiceId, performance.now());
      for (const waiter of waiting.filter((one) => one.invoiceId === invoiceId)) waiter.resolve();
    }
    return response;
  };
  /** Resolves when the bank has done the work of a charge of `invoiceId`. */
  const worked = (invoiceId: string) =>
    new Promise<void>((resolve) => {
      if (workedAt.has(invoiceId)) resolve();
      else waiting.push({ invoiceId, resolve });
    });
  return { ...testApp, events, worked, workedAt };
}

/** A customer whose first payment saved a card: what a renewal charges, with its receipt. */
async function savedCard({ app, context }: TestApp, email: string) {
  const options = await order(app, await signIn(app, email), 1, 30);
  if (!(await payWithCard(app, options.invoiceId, cards.success)).success) throw new Error("not paid");
  // The bank's own record, read directly: no call of its API, so no wait.
  const paid = context.payments.sandbox?.find(options.invoiceId).Model;
  if (!paid?.Token) throw new Error("no saved card");
  return { options, token: paid.Token, transactionId: String(paid.TransactionId) };
}

type SavedCard = Awaited<ReturnType<typeof savedCard>>;

/** A token charge of the saved card through the product's gateway adapter, as a renewal makes it. */
function charge({ context }: TestApp, card: SavedCard, invoiceId: string) {
  return context.payments.gateway.chargeToken(
    {
      Amount: card.options.amount,
      Currency: card.options.currency,
      AccountId: card.options.accountId,
      Token: card.token,
      InvoiceId: invoiceId,
      Description: "a renewal against a slow bank",
    },
    card.options.data.CloudPayments.CustomerReceipt,
  );
}

/** A call under way: when it was sent, and whether and when it was answered (`onAnswer` then runs). */
function sent<Model>(call: () => Promise<GatewayAnswer<Model>>, onAnswer = () => {}) {
  const sentAt = performance.now();
  const state: { answeredAt?: number } = {};
  const answer = call().then((result) => {
    state.answeredAt = performance.now();
    onAnswer();
    return result;
  });
  /** Milliseconds from `from` to the answer; NaN, which no bound holds, when `from` is unknown. */
  const waitedSince = async (from: number | undefined) => {
    await answer;
    return (state.answeredAt ?? Number.NaN) - (from ?? Number.NaN);
  };
  return {
    answer,
    isAnswered: () => state.answeredAt !== undefined,
    /** Milliseconds from the send to the answer. */
    waited: () => waitedSince(sentAt),
    waitedSince,
  };
}

const bank = await slowBank({ SANDBOX_LATENCY_MS: "200", SANDBOX_JITTER_MS: "50" });
const card = await savedCard(bank, "latency-200@example.com");
const { gateway } = bank.context.payments;
const today = new Date(bank.context.clock.now()).toISOString().slice(0, 10);

describe("SANDBOX_LATENCY_MS=200 SANDBOX_JITTER_MS=50: every call of the bank's API waits", () => {
  test("a token charge through the product's gateway adapter is answered no sooner than 150 ms after it was sent", async () => {
    const call = sent(() => charge(bank, card, "latency-200-charge"));
    expect(await call.waited()).toBeGreaterThanOrEqual(150);
    // The wait comes after the work, not before it.
    expect(await call.waitedSince(bank.workedAt.get("latency-200-charge"))).toBeGreaterThanOrEqual(150);
    expect(await call.answer).toMatchObject({ Success: true, Model: { Status: "Completed" } });
  });

  test.each([
    ["a look-up", () => gateway.find(card.options.invoiceId), { Success: true }],
    ["a day's list", () => gateway.list(today), { Success: true }],
    // A refusal waits as long as an answer: the bank is as slow to say no.
    ["a look-up of nothing", () => gateway.find("latency-200-no-such-invoice"), { Success: false }],
    [
      "a refund",
      () =>
        gateway.refund(
          card.transactionId,
          card.options.amount,
          card.options.data.CloudPayments.CustomerReceipt,
        ),
      { Success: true },
    ],
  ])("%s is answered no sooner than 150 ms after it was sent", async (_, call, answer) => {
    const made = sent<unknown>(call);
    expect(await made.waited()).toBeGreaterThanOrEqual(150);
    expect(await made.answer).toMatchObject(answer);
  });
});

// A slower bank for what is shown by order: a machine busy enough to stall this process
// for a whole second is the only way the waits could end before the test looks.
const latency = { SANDBOX_LATENCY_MS: "1000", SANDBOX_JITTER_MS: "100" };
const shortest = 900;

describe("SANDBOX_LATENCY_MS=1000: the bank answers after the work, and calls wait side by side", () => {
  test("the ledger holds the charge while its answer is still on the way, and a look-up finds it", async () => {
    const bank = await slowBank(latency);
    const card = await savedCard(bank, "latency-ledger@example.com");
    const invoiceId = "latency-ledger-charge";
    const call = sent(() => charge(bank, card, invoiceId));
    await bank.worked(invoiceId);
    // A caller that gave up waiting, or a restart that settles pending attempts, looks it up.
    const lookUp = sent(() => bank.context.payments.gateway.find(invoiceId));
    const recorded = await ledger(bank.app, card.options.accountId);
    expect(call.isAnswered()).toBe(false);
    const entry = recorded.find((one) => one.invoiceId === invoiceId);
    expect(entry).toMatchObject({ kind: "payment", status: "Completed" });
    const answered = await call.answer;
    expect(answered).toMatchObject({ Success: true, Model: { Status: "Completed" } });
    expect(String(answered.Model?.TransactionId)).toBe(entry?.transactionId);
    expect(await call.waitedSince(bank.workedAt.get(invoiceId))).toBeGreaterThanOrEqual(shortest);
    expect((await lookUp.answer).Model).toMatchObject({
      TransactionId: answered.Model?.TransactionId,
      Status: "Completed",
    });
  });

  test("charges sent at once are all done and waiting together before the first is answered", async () => {
    const bank = await slowBank(latency);
    const card = await savedCard(bank, "latency-parallel@example.com");
    const invoices = Array.from({ length: 5 }, (_, index) => `latency-parallel-${index}`);
    const calls = invoices.map((invoiceId) =>
      sent(
        () => charge(bank, card, invoiceId),
        () => bank.events.push(`answered ${invoiceId}`),
      ),
    );
    const answers = await Promise.all(calls.map((call) => call.answer));
    expect(answers.map((answer) => answer.Success)).toEqual(invoices.map(() => true));
    // A wait that held up the others (a busy loop, a queue) would answer one before the next is done.
    const order = bank.events.filter((event) => invoices.some((invoiceId) => event.endsWith(invoiceId)));
    expect(order.slice(0, invoices.length).sort()).toEqual(invoices.map((id) => `worked ${id}`).sort());
    expect(order.slice(invoices.length).sort()).toEqual(invoices.map((id) => `answered ${id}`).sort());
    for (const [index, call] of calls.entries())
      expect(await call.waitedSince(bank.workedAt.get(invoices[index] ?? ""))).toBeGreaterThanOrEqual(
        shortest,
      );
  });

  test("once the server is stopping, new calls are answered at once; a wait already running is kept", async () => {
    const stopping = new AbortController();
    const bank = await slowBank(latency, { stopping: stopping.signal });
    const card = await savedCard(bank, "latency-stop@example.com");
    const invoiceId = "latency-stop-charge";
    const running = sent(
      () => charge(bank, card, invoiceId),
      () => bank.events.push("answered the charge sent before the stop"),
    );
    await bank.worked(invoiceId);
    stopping.abort();
    const afterStop = sent(
      () => bank.context.payments.gateway.find(invoiceId),
      () => bank.events.push("answered the look-up sent after the stop"),
    );
    expect((await afterStop.answer).Model).toMatchObject({ Status: "Completed" });
    await running.answer;
    expect(bank.events.filter((event) => event.startsWith("answered"))).toEqual([
      "answered the look-up sent after the stop",
      "answered the charge sent before the stop",
    ]);
    expect(await running.waited()).toBeGreaterThanOrEqual(shortest);
  });
});
