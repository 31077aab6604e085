import { atom, map } from "nanostores";
import { type ApiData, api } from "../lib/api-client";
import { translate } from "../lib/i18n/runtime";
import { showToast } from "../lib/toast/toast-store";
import { type ChangeCall, type ChangeState, idle, tracked } from "./panel-change";
import { panelQuery } from "./panel-query";
import { panelCall } from "./panel-session";

export type VpnNode = ApiData<typeof api.panel.nodes.get>["nodes"][number];
/** A node key the server made, shown once: never stored, gone when dismissed or the page is left. */
export type RevealedKey = { name: string; key: string };

/** The server's order: names compared in lower case, then by id. */
function byNodeName(a: VpnNode, b: VpnNode): number {
  const [left, right] = [a.name.toLowerCase(), b.name.toLowerCase()];
  return left < right ? -1 : left > right ? 1 : a.id - b.id;
}

/**
 * The nodes on screen: as last read, then as each change leaves them. A refresh keeps them
 * (and a key not yet copied) on screen while it asks, and after it fails.
 */
export const $nodes = atom<VpnNode[] | undefined>();
export const $revealedKey = atom<RevealedKey | undefined>();
export const $nodeCreation = atom<ChangeState>(idle);
/** Each node's change under way or last refused, by id. */
export const $nodeChanges = map<Record<string, ChangeState | undefined>>({});

const nodes = panelQuery("nodes", () => panelCall((headers) => api.panel.nodes.get({ headers })), {
  onReady: (data) => $nodes.set([...data.nodes].sort(byNodeName)),
});

export const $nodesRead = nodes.$loaded;
export const openNodes = () => nodes.ask("nodes");
export const refreshNodes = nodes.retry;
export const dismissKey = () => $revealedKey.set(undefined);

/** Adds a node; true when added (the form then empties). Its key is shown once. */
export async function createNode(name: string): Promise<boolean> {
  const created = await tracked(
    (state) => $nodeCreation.set(state),
    (headers) => api.panel.nodes.post({ name: name.trim() }, { headers }),
  );
  if (!created) return false;
  const { node, key } = created;
  showToast(translate("panel.nodesCreated", { name: node.name }), "success");
  $nodes.set([...($nodes.get() ?? []).filter((item) => item.id !== node.id), node].sort(byNodeName));
  $revealedKey.set({ name: node.name, key });
  return true;
}

/** A change to one node; the list shows the node as the server answers it. */
async function change<D extends { node: VpnNode }>(
  node: VpnNode,
  call: ChangeCall<D>,
  done: (data: D) => void,
): Promise<void> {
  const changed = await tracked((state) => $nodeChanges.setKey(String(node.id), state), call);
  if (!changed) return;
  $nodes.set($nodes.get()?.map((item) => (item.id === changed.node.id ? changed.node : item)));
  done(changed);
}

const nodePath = (node: VpnNode) => api.panel.nodes({ id: node.id });

/** A new key for the node, shown once; the old one stops at once (the server's rule). */
export const rotateNodeKey = (node: VpnNode) =>
  change(
    node,
    (headers) => nodePath(node).rotateKey.post({}, { headers }),
    ({ node: changed, key }) => {
      showToast(translate("panel.nodesRotated", { name: changed.name }), "success");
      $revealedKey.set({ name: changed.name, key });
    },
  );

export const setNodeDisabled = (node: VpnNode, isDisabled: boolean) =>
  change(
    node,
    (headers) =>
      isDisabled ? nodePath(node).disable.post({}, { headers }) : nodePath(node).enable.post({}, { headers }),
    ({ node: changed }) =>
      showToast(
        translate(isDisabled ? "panel.nodesDisabledDone" : "panel.nodesEnabledDone", { name: changed.name }),
        "success",
      ),
  );
