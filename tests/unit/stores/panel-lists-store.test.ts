import { afterEach, describe, expect, test, vi } from "vitest";
import { answer, endpoints, panelPage, panelStorage, refusal } from "../../helpers/store-api";

// The network is replaced: these tests are about what the receipts, invitees and
// connection-log pages' store asks and keeps.
vi.mock("../../../src/lib/api-client", () => import("../../helpers/fake-api-client"));
const calls = endpoints({
  checks: (api) => api.panel.checks.post,
  invitees: (api) => api.panel.invitations.getInviteesByInviterId.post,
  logs: (api) => api.panel.logs.post,
});
const stored = panelStorage();

const { store } = panelPage(stored, { store: () => import("../../../src/stores/panel-lists") });
afterEach(() => vi.clearAllMocks());

const lastQuery = (call: ReturnType<typeof vi.fn>) => call.mock.lastCall?.[1];
const receiptsPage = (transactionId: string) => ({ content: [{ transactionId }], page: { totalPages: 4 } });

describe("the customer lists' store", () => {
  test("receipts open on the first page of the spec's three", async () => {
    calls.checks.mockReturnValueOnce(answer(receiptsPage("t-1")));
    await store.receipts.open(42);
    expect(lastQuery(calls.checks)).toEqual({
      headers: { authorization: "Bearer operator.token" },
      query: { userId: 42, page: 0, size: 3 },
    });
    expect(store.receipts.$loaded.get()).toEqual({ state: "ready", data: receiptsPage("t-1") });
  });

  test("another page size starts the receipts again at their first page", async () => {
    calls.checks.mockReturnValue(answer(receiptsPage("t-1")));
    await store.receipts.open(42);
    await store.receipts.showPage(2);
    expect(lastQuery(calls.checks)?.query).toEqual({ userId: 42, page: 2, size: 3 });
    await store.receipts.resize(25);
    expect(lastQuery(calls.checks)?.query).toEqual({ userId: 42, page: 0, size: 25 });
    expect(store.receipts.$query.get()).toEqual({ userId: 42, page: 0, size: 25 });
    expect(calls.checks).toHaveBeenCalledTimes(3);
  });

  test("invitees are asked ten a page, newest first", async () => {
    const invited = { invitations: { content: [], page: { totalPages: 0 } } };
    calls.invitees.mockReturnValue(answer(invited));
    await store.invitees.open(42);
    await store.invitees.showPage(1);
    expect(lastQuery(calls.invitees)?.query).toEqual({
      userId: 42,
      size: 10,
      page: 1,
      sortBy: "created",
      sortDirection: "DESC",
    });
    expect(store.invitees.$loaded.get()).toEqual({ state: "ready", data: invited });
  });

  test("the connection log is asked whole, by customer", async () => {
    calls.logs.mockReturnValueOnce(answer([{ id: 1 }]));
    await store.connectionLogs.open(42);
    expect(lastQuery(calls.logs)?.query).toEqual({ userId: 42 });
    expect(store.connectionLogs.$loaded.get()).toEqual({ state: "ready", data: [{ id: 1 }] });
  });

  test("an unknown customer fails with 404; a retry asks the same page again", async () => {
    calls.checks.mockReturnValueOnce(refusal(404));
    await store.receipts.open(99);
    expect(store.receipts.$loaded.get()).toEqual({ state: "failed", status: 404 });
    calls.checks.mockReturnValueOnce(answer(receiptsPage("t-9")));
    await store.receipts.retry();
    expect(lastQuery(calls.checks)?.query).toEqual({ userId: 99, page: 0, size: 3 });
    expect(store.receipts.$loaded.get()).toEqual({ state: "ready", data: receiptsPage("t-9") });
  });
});
