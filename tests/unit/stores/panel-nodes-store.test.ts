import { afterEach, describe, expect, test, vi } from "vitest";
import { answer, endpoints, panelPage, panelStorage, pathParams, refusedWith } from "../../helpers/store-api";

// The network is replaced: these tests are about what the Nodes screen's store does with each answer.
vi.mock("../../../src/lib/api-client", () => import("../../helpers/fake-api-client"));
const calls = endpoints({
  list: (api) => api.panel.nodes.get,
  create: (api) => api.panel.nodes.post,
  rotateKey: (api) => api.panel.nodes({ id: 0 }).rotateKey.post,
  disable: (api) => api.panel.nodes({ id: 0 }).disable.post,
  enable: (api) => api.panel.nodes({ id: 0 }).enable.post,
});
const stored = panelStorage();

const { store, toasts } = panelPage(stored, {
  store: () => import("../../../src/stores/panel-nodes"),
  toasts: () => import("../../../src/lib/toast/toast-store"),
});
afterEach(() => vi.clearAllMocks());

type VpnNode = import("../../../src/stores/panel-nodes").VpnNode;
const node = (id: number, name: string, changes: Partial<VpnNode> = {}) =>
  ({ id, name, online: false, disabled: false, ...changes }) as VpnNode;
const lastToast = () => toasts.$toasts.get().at(-1);
const names = () => store.$nodes.get()?.map((item) => item.name);

async function openWith(...nodes: VpnNode[]) {
  calls.list.mockReturnValueOnce(answer({ nodes }));
  await store.openNodes();
}

describe("the Nodes screen's store", () => {
  test("the nodes are shown in the server's order: name in any case, then id", async () => {
    await openWith(node(3, "se-sto-1"), node(1, "FI-hel-1"), node(2, "de-fra-1"), node(4, "fi-hel-1"));
    expect(calls.list).toHaveBeenCalledWith({ headers: { authorization: "Bearer operator.token" } });
    expect(names()).toEqual(["de-fra-1", "FI-hel-1", "fi-hel-1", "se-sto-1"]);
    expect(store.$nodesRead.get()).toMatchObject({ state: "ready" });
  });

  test("a refresh keeps the list on screen while it asks and when it fails, then shows the new one", async () => {
    await openWith(node(1, "fi-hel-1"));
    let finish: (value: unknown) => void = () => undefined;
    calls.list.mockReturnValueOnce(new Promise((resolve) => (finish = resolve)));
    const refreshing = store.refreshNodes();
    expect(store.$nodesRead.get()).toEqual({ state: "loading" });
    expect(names()).toEqual(["fi-hel-1"]);
    finish({ data: null, error: { status: 500, value: undefined } });
    await refreshing;
    expect(store.$nodesRead.get()).toEqual({ state: "failed", status: 500 });
    expect(names()).toEqual(["fi-hel-1"]);
    calls.list.mockReturnValueOnce(
      answer({ nodes: [node(1, "fi-hel-1", { online: true }), node(2, "de-fra-1")] }),
    );
    await store.refreshNodes();
    expect(names()).toEqual(["de-fra-1", "fi-hel-1"]);
    expect(store.$nodes.get()?.[1]?.online).toBe(true);
  });

  test("support staff are refused the read: the status says so and no list is shown", async () => {
    calls.list.mockReturnValueOnce(refusedWith(403));
    await store.openNodes();
    expect(store.$nodesRead.get()).toEqual({ state: "failed", status: 403 });
    expect(store.$nodes.get()).toBeUndefined();
  });

  test("an added node joins the list in order and its key is shown once", async () => {
    await openWith(node(1, "fi-hel-1"));
    calls.create.mockReturnValueOnce(answer({ node: node(7, "de-fra-1"), key: "node-key-once" }));
    expect(await store.createNode("  de-fra-1 ")).toBe(true);
    expect(calls.create).toHaveBeenCalledWith(
      { name: "de-fra-1" },
      { headers: { authorization: "Bearer operator.token" } },
    );
    expect(names()).toEqual(["de-fra-1", "fi-hel-1"]);
    expect(store.$revealedKey.get()).toEqual({ name: "de-fra-1", key: "node-key-once" });
    expect(store.$nodeCreation.get()).toEqual({ isBusy: false });
    expect(lastToast()).toMatchObject({ type: "success", content: "panel.nodesCreated" });
    store.dismissKey();
    expect(store.$revealedKey.get()).toBeUndefined();
  });

  test("a refused node keeps the list, with the status and the server's words", async () => {
    await openWith(node(1, "fi-hel-1"));
    calls.create.mockReturnValueOnce(refusedWith(409, "A node with this name exists."));
    expect(await store.createNode("FI-HEL-1")).toBe(false);
    expect(store.$nodeCreation.get()).toEqual({
      isBusy: false,
      refusal: { status: 409, detail: "A node with this name exists." },
    });
    expect(names()).toEqual(["fi-hel-1"]);
    expect(store.$revealedKey.get()).toBeUndefined();
  });

  test("a rotated key replaces the one on screen and is shown once", async () => {
    await openWith(node(1, "fi-hel-1"));
    let finish: (value: unknown) => void = () => undefined;
    calls.rotateKey.mockReturnValueOnce(new Promise((resolve) => (finish = resolve)));
    const rotating = store.rotateNodeKey(node(1, "fi-hel-1"));
    expect(store.$nodeChanges.get()["1"]).toEqual({ isBusy: true });
    finish({ data: { node: node(1, "fi-hel-1"), key: "second-key" }, error: null });
    await rotating;
    expect(pathParams((api) => api.panel.nodes)).toEqual([{ id: 1 }]);
    expect(store.$nodeChanges.get()["1"]).toEqual({ isBusy: false });
    expect(store.$revealedKey.get()).toEqual({ name: "fi-hel-1", key: "second-key" });
    expect(lastToast()).toMatchObject({ type: "success", content: "panel.nodesRotated" });
  });

  test("disabling and enabling show the node as the server answers, and say so", async () => {
    await openWith(node(1, "fi-hel-1"), node(2, "se-sto-1"));
    calls.disable.mockReturnValueOnce(answer({ node: node(2, "se-sto-1", { disabled: true }) }));
    await store.setNodeDisabled(node(2, "se-sto-1"), true);
    expect(store.$nodes.get()?.map((item) => item.disabled)).toEqual([false, true]);
    expect(lastToast()).toMatchObject({ content: "panel.nodesDisabledDone" });
    calls.enable.mockReturnValueOnce(answer({ node: node(2, "se-sto-1") }));
    await store.setNodeDisabled(node(2, "se-sto-1", { disabled: true }), false);
    expect(store.$nodes.get()?.map((item) => item.disabled)).toEqual([false, false]);
    expect(lastToast()).toMatchObject({ content: "panel.nodesEnabledDone" });
  });

  test("a refused change stays beside that node only; a dropped connection has no status", async () => {
    await openWith(node(1, "fi-hel-1"), node(2, "se-sto-1"));
    calls.disable.mockReturnValueOnce(refusedWith(404, "This node does not exist."));
    await store.setNodeDisabled(node(2, "se-sto-1"), true);
    calls.rotateKey.mockReturnValueOnce(Promise.reject(new TypeError("Failed to fetch")));
    await store.rotateNodeKey(node(1, "fi-hel-1"));
    expect(store.$nodeChanges.get()).toEqual({
      "1": { isBusy: false, refusal: { status: undefined } },
      "2": { isBusy: false, refusal: { status: 404, detail: "This node does not exist." } },
    });
    expect(store.$nodes.get()?.map((item) => item.disabled)).toEqual([false, false]);
  });
});
