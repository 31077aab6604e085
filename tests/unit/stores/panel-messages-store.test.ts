import { afterEach, describe, expect, test, vi } from "vitest";
import { answer, endpoints, panelPage, panelStorage, pending, refusal } from "../../helpers/store-api";

// The network is replaced: these tests are about what the messages section's store keeps.
vi.mock("../../../src/lib/api-client", () => import("../../helpers/fake-api-client"));
const calls = endpoints({ messages: (api) => api.panel.users.messages.post });
const stored = panelStorage();

const { store } = panelPage(stored, { store: () => import("../../../src/stores/panel-messages") });
afterEach(() => vi.clearAllMocks());

const page = (subject: string) => ({ content: [{ id: 1, subject }], page: { totalPages: 2 } });

describe("the customer's messages store", () => {
  test("the first page of ten is asked for the customer and shown", async () => {
    calls.messages.mockReturnValueOnce(answer(page("Welcome")));
    await store.loadMessages(42);
    expect(calls.messages).toHaveBeenCalledWith(
      {},
      { headers: { authorization: "Bearer operator.token" }, query: { userId: 42, page: 0, size: 10 } },
    );
    expect(store.$messages.get()).toEqual(page("Welcome"));
    expect(store.$messagesFailed.get()).toBe(false);
  });

  test("another page keeps the customer and the last page on screen until it arrives", async () => {
    calls.messages.mockReturnValueOnce(answer(page("Welcome")));
    await store.loadMessages(42);
    const { promise: later, finish } = pending();
    calls.messages.mockReturnValueOnce(later);
    const turning = store.showMessagesPage(1);
    expect(store.$messagesQuery.get()).toEqual({ userId: 42, page: 1 });
    expect(store.$messages.get()).toEqual(page("Welcome"));
    finish({ data: page("Receipt"), error: null });
    await turning;
    expect(calls.messages).toHaveBeenLastCalledWith(
      {},
      expect.objectContaining({ query: { userId: 42, page: 1, size: 10 } }),
    );
    expect(store.$messages.get()).toEqual(page("Receipt"));
  });

  test("a failure says so and keeps what was shown; a retry asks the same page again", async () => {
    calls.messages.mockReturnValueOnce(answer(page("Welcome")));
    await store.loadMessages(42);
    calls.messages.mockReturnValueOnce(refusal(500));
    await store.showMessagesPage(1);
    expect(store.$messagesFailed.get()).toBe(true);
    expect(store.$messages.get()).toEqual(page("Welcome"));
    calls.messages.mockReturnValueOnce(Promise.reject(new TypeError("Failed to fetch")));
    await store.retryMessages();
    expect(store.$messagesFailed.get()).toBe(true);
    calls.messages.mockReturnValueOnce(answer(page("Receipt")));
    await store.retryMessages();
    expect(calls.messages).toHaveBeenLastCalledWith(
      {},
      expect.objectContaining({ query: { userId: 42, page: 1, size: 10 } }),
    );
    expect(store.$messagesFailed.get()).toBe(false);
    expect(store.$messages.get()).toEqual(page("Receipt"));
  });

  test("an answer for a page the operator has left is dropped", async () => {
    const { promise: laterFirst, finish: finishFirst } = pending();
    calls.messages.mockReturnValueOnce(laterFirst);
    const first = store.loadMessages(42);
    calls.messages.mockReturnValueOnce(answer(page("Second page")));
    await store.showMessagesPage(1);
    finishFirst({ data: page("First page, late"), error: null });
    await first;
    expect(store.$messages.get()).toEqual(page("Second page"));
  });
});
