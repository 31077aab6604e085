import { afterEach, describe, expect, test, vi } from "vitest";
import { answer, endpoints, panelPage, panelStorage, pathParams } from "../../helpers/store-api";

// The network is replaced: these tests are about what the Entries section's store does with each answer.
vi.mock("../../../src/lib/api-client", () => import("../../helpers/fake-api-client"));
const calls = endpoints({
  list: (api) => api.panel.entries.get,
  create: (api) => api.panel.entries.post,
  patch: (api) => api.panel.entries({ id: 0 }).patch,
  order: (api) => api.panel.entries.order.post,
  bulk: (api) => api.panel.entries.bulk.post,
});
const stored = panelStorage();

const { store, toasts } = panelPage(stored, {
  store: () => import("../../../src/stores/panel-entries"),
  toasts: () => import("../../../src/lib/toast/toast-store"),
});
afterEach(() => vi.clearAllMocks());

type Entry = import("../../../src/stores/panel-entries").Entry;
type Dialed = NonNullable<Entry["dialed"]>;
const headers = { headers: { authorization: "Bearer operator.token" } };
const entry = (id: number, position: number, dialed: Partial<Dialed> = {}, changes: Partial<Entry> = {}) =>
  ({
    id,
    position,
    nodeName: "fi-hel-1",
    inboundTag: "kannt-reality",
    enabled: true,
    remark: "",
    tags: [],
    tariffs: [],
    out: null,
    probes: [],
    dialed: { security: "reality", fingerprint: "chrome", ...dialed },
    ...changes,
  }) as Entry;
const refusal = (status: number, code?: string, message?: string) =>
  Promise.resolve({
    data: null,
    error: { status, value: code ? { success: false, error: { code, message } } : undefined },
  });
const lastToast = () => toasts.$toasts.get().at(-1);
const ids = () => store.$entries.get()?.map((item) => item.id);
const draft = (changes: Partial<import("../../../src/stores/panel-entries").EntryDraft> = {}) => ({
  ...store.draftOf(undefined),
  ...changes,
});

async function openWith(...entries: Entry[]) {
  calls.list.mockReturnValueOnce(answer({ success: true, entries }));
  await store.openEntries();
}

describe("the Entries section's store", () => {
  test("entries are shown in the operator's order, whatever order they arrive in", async () => {
    await openWith(entry(7, 3), entry(2, 1), entry(5, 2));
    expect(calls.list).toHaveBeenCalledWith(headers);
    expect(ids()).toEqual([2, 5, 7]);
    expect(store.$entriesRead.get()).toMatchObject({ state: "ready" });
  });

  test("a refused read says why and shows no list; a refresh that fails keeps the list", async () => {
    calls.list.mockReturnValueOnce(refusal(403, "admin_only"));
    await store.openEntries();
    expect(store.$entriesRead.get()).toEqual({ state: "failed", status: 403, code: "admin_only" });
    expect(store.$entries.get()).toBeUndefined();
    calls.list.mockReturnValueOnce(answer({ success: true, entries: [entry(1, 1)] }));
    await store.refreshEntries();
    calls.list.mockReturnValueOnce(Promise.reject(new TypeError("Failed to fetch")));
    await store.refreshEntries();
    expect(store.$entriesRead.get()).toEqual({ state: "failed", status: undefined });
    expect(ids()).toEqual([1]);
  });

  test("an empty field gives the setting back to the inbound; tags split at commas and spaces", () => {
    expect(
      store.settingsOf(
        draft({
          remark: " Finland ",
          sni: " www.example.com ",
          port: "8443",
          tags: "cdn, mobile  ru",
          alpn: ["h2"],
        }),
      ),
    ).toEqual({
      remark: "Finland",
      address: null,
      port: 8443,
      sni: "www.example.com",
      fingerprint: null,
      alpn: ["h2"],
      path: null,
      hostHeader: null,
      serviceName: null,
      tags: ["cdn", "mobile", "ru"],
      tariffs: [],
    });
    expect(store.settingsOf(draft({ port: "70000" }))).toBeUndefined();
    expect(store.settingsOf(draft({ port: "44a" }))).toBeUndefined();
  });

  test("an edited entry shows as the server answers it; a refused edit keeps the list and says why", async () => {
    await openWith(entry(1, 1), entry(2, 2));
    calls.patch.mockReturnValueOnce(
      answer({ success: true, entry: entry(2, 2, { sni: "cdn.example.org" }) }),
    );
    expect(await store.editEntry(entry(2, 2), draft({ sni: "cdn.example.org" }))).toBe(true);
    expect(pathParams((api) => api.panel.entries)).toEqual([{ id: 2 }]);
    expect(calls.patch.mock.calls[0]?.[0]).toMatchObject({ sni: "cdn.example.org", fingerprint: null });
    expect(store.$entries.get()?.[1]?.dialed?.sni).toBe("cdn.example.org");
    expect(lastToast()).toMatchObject({ type: "success", content: "panel.entriesSaved" });

    calls.patch.mockReturnValueOnce(refusal(400, "invalid_entry", 'The entry\'s "sni" is not valid.'));
    expect(await store.editEntry(entry(1, 1), draft({ sni: "bad name!" }))).toBe(false);
    expect(store.$entryChanges.get()["1"]).toEqual({
      isBusy: false,
      refusal: { status: 400, code: "invalid_entry", detail: 'The entry\'s "sni" is not valid.' },
    });
    expect(ids()).toEqual([1, 2]);
  });

  test("a port that is not a port is refused before asking, with the reason", async () => {
    await openWith(entry(1, 1));
    expect(await store.editEntry(entry(1, 1), draft({ port: "0" }))).toBe(false);
    expect(calls.patch).not.toHaveBeenCalled();
    expect(store.$entryChanges.get()["1"]).toMatchObject({
      isBusy: false,
      refusal: { status: 400, code: "invalid_entry", detail: "panel.entriesPortInvalid" },
    });
  });

  test("an added entry joins the end of the list with the node and inbound chosen", async () => {
    await openWith(entry(1, 1));
    calls.create.mockReturnValueOnce(
      answer({ success: true, entry: entry(9, 2, {}, { nodeName: "de-fra-1" }) }),
    );
    expect(await store.addEntry(4, "kannt-xhttp", draft({ address: "cdn.example.org" }))).toBe(true);
    expect(calls.create.mock.calls[0]?.[0]).toMatchObject({
      nodeId: 4,
      inboundTag: "kannt-xhttp",
      address: "cdn.example.org",
    });
    expect(ids()).toEqual([1, 9]);
    expect(store.$entryCreation.get()).toEqual({ isBusy: false });
    expect(lastToast()).toMatchObject({ content: "panel.entriesAdded" });
  });

  test("moving an entry sends every entry's id in the new order and shows the server's order", async () => {
    await openWith(entry(1, 1), entry(2, 2), entry(3, 3));
    calls.order.mockReturnValueOnce(
      answer({ success: true, entries: [entry(1, 1), entry(3, 2), entry(2, 3)] }),
    );
    await store.moveEntry(entry(3, 3), -1);
    expect(calls.order).toHaveBeenCalledWith({ ids: [1, 3, 2] }, headers);
    expect(ids()).toEqual([1, 3, 2]);
    // The first cannot go higher: nothing is asked.
    await store.moveEntry(entry(1, 1), -1);
    expect(calls.order).toHaveBeenCalledTimes(1);
  });

  test("switching one off shows it out of subscriptions, as the server says", async () => {
    await openWith(entry(1, 1));
    calls.patch.mockReturnValueOnce(
      answer({ success: true, entry: entry(1, 1, {}, { enabled: false, out: "switchedOff" }) }),
    );
    await store.setEntryEnabled(entry(1, 1), false);
    expect(calls.patch).toHaveBeenCalledWith({ enabled: false }, headers);
    expect(store.$entries.get()?.[0]).toMatchObject({ enabled: false, out: "switchedOff" });
    expect(lastToast()).toMatchObject({ content: "panel.entriesSwitchedOff" });
  });

  test("every REALITY entry on chrome is ticked by the filter and switched to firefox by id, in one call", async () => {
    await openWith(
      entry(1, 1),
      entry(2, 2, { security: "tls", fingerprint: "chrome" }),
      entry(3, 3, { fingerprint: "safari" }),
      entry(4, 4),
      entry(5, 5, { fingerprint: null }),
    );
    store.selectMatching({ security: "reality", fingerprint: "chrome" });
    expect(store.$selectedEntries.get()).toEqual([1, 4]);
    store.toggleSelected(entry(3, 3, { fingerprint: "safari" }));
    store.toggleSelected(entry(4, 4));
    expect(store.$selectedCount.get()).toBe(2);
    store.selectMatching({ security: "", fingerprint: "none" });
    expect(store.$selectedEntries.get()).toEqual([5]);
    store.selectMatching({ security: "reality", fingerprint: "chrome" });

    calls.bulk.mockReturnValueOnce(
      answer({
        success: true,
        entries: [entry(1, 1, { fingerprint: "firefox" }), entry(4, 4, { fingerprint: "firefox" })],
      }),
    );
    expect(await store.changeSelected({ fingerprint: "firefox" })).toBe(true);
    expect(calls.bulk).toHaveBeenCalledWith({ ids: [1, 4], changes: { fingerprint: "firefox" } }, headers);
    expect(store.$entries.get()?.map((item) => item.dialed?.fingerprint)).toEqual([
      "firefox",
      "chrome",
      "safari",
      "firefox",
      null,
    ]);
    expect(store.$selectedEntries.get()).toEqual([]);
    expect(lastToast()).toMatchObject({ content: "panel.entriesManyChanged" });
  });

  test("a refused change to many keeps the selection for another try", async () => {
    await openWith(entry(1, 1), entry(2, 2));
    store.selectMatching({ security: "reality", fingerprint: "" });
    calls.bulk.mockReturnValueOnce(refusal(404, "entry_not_found", "There is no entry with this id."));
    expect(await store.changeSelected({ enabled: false })).toBe(false);
    expect(store.$manyChange.get()).toEqual({
      isBusy: false,
      refusal: { status: 404, code: "entry_not_found", detail: "There is no entry with this id." },
    });
    expect(store.$selectedEntries.get()).toEqual([1, 2]);
    // Nothing ticked, nothing asked.
    store.clearSelection();
    expect(await store.changeSelected({ enabled: false })).toBe(false);
    expect(calls.bulk).toHaveBeenCalledTimes(1);
  });
});
