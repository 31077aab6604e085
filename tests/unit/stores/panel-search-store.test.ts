import { afterEach, describe, expect, test, vi } from "vitest";
import { answer, endpoints, panelPage, panelStorage, pending, refusal } from "../../helpers/store-api";

// The network is replaced: these tests are about what the search screen's store asks and keeps.
vi.mock("../../../src/lib/api-client", () => import("../../helpers/fake-api-client"));
const calls = endpoints({ search: (api) => api.panel.users.search.post });
const stored = panelStorage();

const { store } = panelPage(stored, { store: () => import("../../../src/stores/panel-search") });
afterEach(() => vi.clearAllMocks());

const found = (...emails: string[]) => ({
  content: emails.map((email, index) => ({ id: index + 1, email })),
  page: { totalPages: 3 },
  unboundPurchases: [],
});
const askedQuery = (call = 0) => calls.search.mock.calls[call]?.[1];

describe("the customer search's store", () => {
  test("the screen opens on the first page of every customer, ten by id, with the operator's token", async () => {
    calls.search.mockReturnValueOnce(answer(found("a@example.com")));
    const opened = store.openSearch();
    expect(store.$searchResult.get()).toEqual({ state: "loading" });
    await opened;
    expect(askedQuery()).toEqual({
      headers: { authorization: "Bearer operator.token" },
      query: { page: 0, size: 10, sortBy: "id", emailPart: "" },
    });
    expect(store.$searchResult.get()).toEqual({ state: "ready", data: found("a@example.com") });
  });

  test("a search asks for the typed part without its spaces, from the first page", async () => {
    calls.search.mockReturnValue(answer(found("buyer@example.com")));
    await store.openSearch();
    await store.showSearchPage(2);
    await store.searchCustomers("  BUYER ");
    expect(askedQuery(2)?.query).toEqual({ page: 0, size: 10, sortBy: "id", emailPart: "BUYER" });
    expect(store.$searchQuery.get()).toEqual({ part: "BUYER", page: 0 });
  });

  test("another page keeps the search and shows the last page until it arrives", async () => {
    calls.search.mockReturnValueOnce(answer(found("a@example.com")));
    await store.searchCustomers("example");
    const { promise: later, finish } = pending();
    calls.search.mockReturnValueOnce(later);
    const turning = store.showSearchPage(1);
    expect(store.$searchQuery.get()).toEqual({ part: "example", page: 1 });
    expect(store.$searchResult.get()).toEqual({ state: "ready", data: found("a@example.com") });
    finish({ data: found("b@example.com"), error: null });
    await turning;
    expect(askedQuery(1)?.query).toMatchObject({ page: 1, emailPart: "example" });
    expect(store.$searchResult.get()).toEqual({ state: "ready", data: found("b@example.com") });
  });

  test("a failed search says how it failed and asks again on retry", async () => {
    calls.search.mockReturnValueOnce(refusal(500));
    await store.searchCustomers("x");
    expect(store.$searchResult.get()).toEqual({ state: "failed", status: 500 });
    calls.search.mockReturnValueOnce(answer(found("x@example.com")));
    await store.retrySearch();
    expect(askedQuery(1)?.query).toMatchObject({ emailPart: "x", page: 0 });
    expect(store.$searchResult.get()).toEqual({ state: "ready", data: found("x@example.com") });
  });

  test("the same search twice asks once", async () => {
    calls.search.mockReturnValue(answer(found()));
    await store.searchCustomers("same");
    await store.searchCustomers(" same ");
    expect(calls.search).toHaveBeenCalledOnce();
  });
});
