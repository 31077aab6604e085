import { afterEach, describe, expect, test, vi } from "vitest";
import { answer, endpoints, panelPage, panelStorage } from "../../helpers/store-api";

// The network is replaced: these tests are about what the audit log's store asks and keeps.
vi.mock("../../../src/lib/api-client", () => import("../../helpers/fake-api-client"));
const calls = endpoints({ audit: (api) => api.panel.audit.get });
const stored = panelStorage();

const { store } = panelPage(stored, { store: () => import("../../../src/stores/panel-audit") });
afterEach(() => vi.clearAllMocks());

const entries = (action: string) => ({ content: [{ id: 1, action }], page: { totalPages: 2 } });
const refusal = (status: number) => Promise.resolve({ data: null, error: { status, value: undefined } });

describe("the audit log's store", () => {
  test("the log opens on its newest twenty entries", async () => {
    calls.audit.mockReturnValueOnce(answer(entries("operator.login")));
    await store.openAudit();
    expect(calls.audit).toHaveBeenCalledWith({
      headers: { authorization: "Bearer operator.token" },
      query: { page: 0, size: 20 },
    });
    expect(store.$auditLog.get()).toEqual({ state: "ready", data: entries("operator.login") });
  });

  test("another page is asked and replaces the entries", async () => {
    calls.audit.mockReturnValueOnce(answer(entries("operator.login")));
    await store.openAudit();
    calls.audit.mockReturnValueOnce(answer(entries("refund")));
    await store.showAuditPage(1);
    expect(calls.audit).toHaveBeenLastCalledWith(expect.objectContaining({ query: { page: 1, size: 20 } }));
    expect(store.$auditQuery.get()).toEqual({ page: 1 });
    expect(store.$auditLog.get()).toEqual({ state: "ready", data: entries("refund") });
  });

  test("a refusal keeps its status; a retry asks the same page again", async () => {
    calls.audit.mockReturnValueOnce(refusal(403));
    await store.openAudit();
    expect(store.$auditLog.get()).toEqual({ state: "failed", status: 403 });
    calls.audit.mockReturnValueOnce(answer(entries("promo.create")));
    await store.retryAudit();
    expect(calls.audit).toHaveBeenCalledTimes(2);
    expect(store.$auditLog.get()).toEqual({ state: "ready", data: entries("promo.create") });
  });
});
