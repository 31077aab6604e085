import { afterEach, describe, expect, test, vi } from "vitest";
import { answer, endpoints, panelPage, panelStorage, refusedWith } from "../../helpers/store-api";

// The network is replaced: these tests are about what the refund section's store does with each answer.
vi.mock("../../../src/lib/api-client", () => import("../../helpers/fake-api-client"));
const calls = endpoints({
  preview: (api) => api.panel.refund.preview.post,
  refund: (api) => api.panel.refund.post,
});
const stored = panelStorage();

const { store } = panelPage(stored, { store: () => import("../../../src/stores/panel-refund") }, () => {
  // Another tab opened another customer since: what every tab shares must not decide.
  stored.set("selected_person", "7");
  stored.set("selected_person_email", "other@example.com");
  stored.set("selected_person_uid", "uid-7");
});
afterEach(() => vi.clearAllMocks());

/** The customer the page names, as the server answered for its URL's id. */
const shown = { email: "buyer@example.com", uid: "uid-42" };
const refundAnswer = (Success: boolean, total: number) => ({ Success, total, payments: [], Message: "" });

describe("the refund section's store", () => {
  test("the preview is asked for the page's customer, by uid and e-mail, whatever another tab chose", async () => {
    calls.preview.mockReturnValueOnce(answer(refundAnswer(true, 300)));
    await store.loadRefundPreview(shown);
    expect(calls.preview).toHaveBeenCalledWith(
      { email: "buyer@example.com", uid: "uid-42" },
      { headers: { authorization: "Bearer operator.token" } },
    );
    expect(store.$refundPreview.get()).toEqual({ state: "ready", answer: refundAnswer(true, 300) });
  });

  test("a failed preview shows the server's words, or says the request failed", async () => {
    calls.preview.mockReturnValueOnce(refusedWith(403, "Only administrators refund."));
    await store.loadRefundPreview(shown);
    expect(store.$refundPreview.get()).toEqual({ state: "failed", message: "Only administrators refund." });
    calls.preview.mockReturnValueOnce(Promise.reject(new TypeError("Failed to fetch")));
    await store.loadRefundPreview(shown);
    expect(store.$refundPreview.get()).toEqual({ state: "failed", message: "panel.requestFailed" });
  });

  test("a refund acts on the page's customer, shows its answer, then the preview of what is left", async () => {
    calls.refund.mockReturnValueOnce(answer(refundAnswer(true, 300)));
    calls.preview.mockReturnValueOnce(answer(refundAnswer(false, 0)));
    await store.makeRefund(shown);
    expect(calls.refund).toHaveBeenCalledWith(
      { email: "buyer@example.com", uid: "uid-42" },
      { headers: { authorization: "Bearer operator.token" } },
    );
    expect(calls.preview).toHaveBeenCalledWith(
      { email: "buyer@example.com", uid: "uid-42" },
      { headers: { authorization: "Bearer operator.token" } },
    );
    expect(store.$refundResult.get()).toEqual({ answer: refundAnswer(true, 300) });
    expect(store.$refundPreview.get()).toEqual({ state: "ready", answer: refundAnswer(false, 0) });
  });

  test("a refund the server refused says why, and the preview is still asked again", async () => {
    calls.refund.mockReturnValueOnce(refusedWith(500));
    calls.preview.mockReturnValueOnce(answer(refundAnswer(true, 300)));
    await store.makeRefund(shown);
    expect(store.$refundResult.get()).toEqual({ failure: "panel.requestFailed" });
    expect(calls.preview).toHaveBeenCalledOnce();
  });
});
