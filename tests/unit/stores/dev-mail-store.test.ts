import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { answer, networkFailure, openCustomerPage, refusal } from "../../helpers/customer-store-browser";
import { endpoints, pending } from "../../helpers/store-api";

// The network is replaced: these tests are about what the demo mailbox shows after each answer.
vi.mock("../../../src/lib/api-client", () => import("../../helpers/fake-api-client"));
const calls = endpoints({ mail: (api) => api.dev.mail.get });

openCustomerPage("https://kannt.example/dev-mail");
const store = await import("../../../src/stores/dev-mail");

const message = (messageId: string, status = "sent") => ({
  to: "someone@example.com",
  subject: `Subject ${messageId}`,
  text: "Hello",
  html: "<p>Hello</p>",
  kind: "welcome",
  language: "en",
  createdAt: "2026-11-26T10:00:00.000Z",
  messageId,
  sentAt: status === "sent" ? "2026-11-26T10:00:01.000Z" : null,
  status,
});

beforeEach(() => {
  store.$devMail.set({ status: "idle" });
  store.$selectedMessageId.set(undefined);
});
afterEach(() => {
  vi.clearAllMocks();
  vi.useRealTimers();
});

describe("the demo mailbox", () => {
  test("an address's messages are asked for and shown, the newest opened", async () => {
    calls.mail.mockReturnValueOnce(answer([message("m2"), message("m1")]));
    const loading = store.showMessages("  someone@example.com ");
    expect(store.$devMail.get()).toEqual({ status: "loading", address: "someone@example.com" });
    await loading;
    expect(calls.mail).toHaveBeenCalledWith({ query: { to: "someone@example.com" } });
    expect(store.$devMail.get()).toEqual({
      status: "ready",
      address: "someone@example.com",
      messages: [message("m2"), message("m1")],
    });
    expect(store.$selectedMessageId.get()).toBe("m2");
    store.selectMessage("m1");
    expect(store.$selectedMessageId.get()).toBe("m1");
  });

  test("a refused or failed call is a failure, never 'no messages'", async () => {
    calls.mail.mockReturnValueOnce(refusal(404));
    await store.showMessages("someone@example.com");
    expect(store.$devMail.get()).toEqual({ status: "failed", address: "someone@example.com" });
    calls.mail.mockReturnValueOnce(networkFailure());
    await store.showMessages("someone@example.com");
    expect(store.$devMail.get()).toEqual({ status: "failed", address: "someone@example.com" });
    calls.mail.mockRejectedValueOnce(new TypeError("Failed to fetch"));
    await store.showMessages("someone@example.com");
    expect(store.$devMail.get()).toEqual({ status: "failed", address: "someone@example.com" });
  });

  test("while a message waits for the worker the list looks again, keeping the open message", async () => {
    vi.useFakeTimers();
    calls.mail.mockReturnValueOnce(answer([message("m2", "pending"), message("m1")]));
    await store.showMessages("someone@example.com");
    store.selectMessage("m1");
    calls.mail.mockReturnValueOnce(answer([message("m2"), message("m1")]));
    await vi.advanceTimersByTimeAsync(2000);
    expect(calls.mail).toHaveBeenCalledTimes(2);
    expect(store.$devMail.get()).toMatchObject({ status: "ready", messages: [message("m2"), message("m1")] });
    expect(store.$selectedMessageId.get()).toBe("m1");
    // Nothing waits any more: no further look.
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls.mail).toHaveBeenCalledTimes(2);
  });

  test("a look again that fails keeps the list on screen", async () => {
    vi.useFakeTimers();
    calls.mail.mockReturnValueOnce(answer([message("m1", "pending")]));
    await store.showMessages("someone@example.com");
    calls.mail.mockReturnValueOnce(networkFailure());
    await vi.advanceTimersByTimeAsync(2000);
    expect(store.$devMail.get()).toEqual({
      status: "ready",
      address: "someone@example.com",
      messages: [message("m1", "pending")],
    });
  });

  test("an answer for an address no longer shown is dropped", async () => {
    const { promise: later, finish } = pending();
    calls.mail.mockReturnValueOnce(later);
    const first = store.showMessages("old@example.com");
    calls.mail.mockReturnValueOnce(answer([message("new")]));
    await store.showMessages("new@example.com");
    finish({ data: [message("old")], error: null });
    await first;
    expect(store.$devMail.get()).toMatchObject({ address: "new@example.com", messages: [message("new")] });
    expect(store.$selectedMessageId.get()).toBe("new");
  });

  test("another address stops the looking again for the first", async () => {
    vi.useFakeTimers();
    calls.mail.mockReturnValueOnce(answer([message("m1", "pending")]));
    await store.showMessages("old@example.com");
    calls.mail.mockReturnValueOnce(answer([message("m9")]));
    await store.showMessages("new@example.com");
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls.mail).toHaveBeenCalledTimes(2);
    expect(store.$devMail.get()).toMatchObject({ address: "new@example.com" });
  });
});
