import { atom, computed, map } from "nanostores";
import { type ApiData, api } from "../lib/api-client";
import { translate } from "../lib/i18n/runtime";
import { showToast } from "../lib/toast/toast-store";
import { type ChangeState, idle, type Refusal, tracked } from "./panel-change";
import { panelQuery } from "./panel-query";
import { panelCall } from "./panel-session";

/** A published entry as the Nodes screen shows it (bff/modules/access/entries/entry-view.ts). */
export type Entry = ApiData<typeof api.panel.entries.get>["entries"][number];
/** What an operator may set on an entry; null gives a setting back to the inbound. */
export type EntrySettings = NonNullable<Parameters<typeof api.panel.entries.bulk.post>[0]>["changes"];

/**
 * An entry's settings as a form holds them: text as typed, empty for the inbound's own.
 * `settingsOf` turns it into what the server takes.
 */
export type EntryDraft = {
  remark: string;
  address: string;
  port: string;
  sni: string;
  fingerprint: string;
  alpn: string[];
  path: string;
  hostHeader: string;
  serviceName: string;
  tags: string;
  tariffs: number[];
};

/** The entries to change many at once: those whose dialed security and fingerprint match ("" matches any). */
export type EntryFilter = { security: string; fingerprint: string };

/** One change to many entries: a fingerprint for all of them, or all switched on or off. */
export type ManyChange = { fingerprint: string } | { enabled: boolean };

export const $entries = atom<Entry[] | undefined>();
export const $entryCreation = atom<ChangeState>(idle);
/** Each entry's change under way or last refused (an edit, a switch, a move), by id. */
export const $entryChanges = map<Record<string, ChangeState | undefined>>({});
/** The entries ticked for one change to many, by id. */
export const $selectedEntries = atom<readonly number[]>([]);
export const $manyChange = atom<ChangeState>(idle);

const byPosition = (a: Entry, b: Entry) => a.position - b.position || a.id - b.id;

const entries = panelQuery("entries", () => panelCall((headers) => api.panel.entries.get({ headers })), {
  onReady: (data) => {
    const list = [...data.entries].sort(byPosition);
    $entries.set(list);
    // A ticked entry that is gone is no longer one the change would reach.
    const ids = new Set(list.map((entry) => entry.id));
    $selectedEntries.set($selectedEntries.get().filter((id) => ids.has(id)));
  },
});

export const $entriesRead = entries.$loaded;
export const openEntries = () => entries.ask("entries");
export const refreshEntries = entries.retry;

/** The entries as the server answered them, in place of those on screen. */
function showAnswered(changed: readonly Entry[]) {
  const byId = new Map(changed.map((entry) => [entry.id, entry]));
  $entries.set($entries.get()?.map((entry) => byId.get(entry.id) ?? entry));
}

const blank = (text: string) => (text.trim() === "" ? null : text.trim());

/** Refused here, before asking: the port is not a number the server could take. */
const badPort = (): Refusal => ({
  status: 400,
  code: "invalid_entry",
  detail: translate("panel.entriesPortInvalid"),
});

/**
 * The settings a form's draft asks for: an empty field gives the setting back to the inbound
 * (null), tags are split at commas or spaces; undefined when the port is not a port.
 */
export function settingsOf(draft: EntryDraft): EntrySettings | undefined {
  const port = blank(draft.port);
  const portNumber = port === null ? null : Number(port);
  if (portNumber !== null && !(Number.isInteger(portNumber) && portNumber >= 1 && portNumber <= 65535))
    return undefined;
  return {
    remark: draft.remark.trim(),
    address: blank(draft.address),
    port: portNumber,
    sni: blank(draft.sni),
    fingerprint: (blank(draft.fingerprint) ?? null) as EntrySettings["fingerprint"],
    alpn: draft.alpn.length === 0 ? null : (draft.alpn as NonNullable<EntrySettings["alpn"]>),
    path: blank(draft.path),
    hostHeader: blank(draft.hostHeader),
    serviceName: blank(draft.serviceName),
    tags: draft.tags.split(/[\s,]+/).filter((tag) => tag !== ""),
    tariffs: draft.tariffs,
  };
}

/** The form of an entry as it is: its own settings, empty where it takes the inbound's. */
export function draftOf(entry: Entry | undefined): EntryDraft {
  const own = entry?.own;
  return {
    remark: entry?.remark ?? "",
    address: own?.address ?? "",
    port: own?.port === null || own?.port === undefined ? "" : String(own.port),
    sni: own?.sni ?? "",
    fingerprint: own?.fingerprint ?? "",
    alpn: own?.alpn ?? [],
    path: own?.path ?? "",
    hostHeader: own?.hostHeader ?? "",
    serviceName: own?.serviceName ?? "",
    tags: entry?.tags.join(", ") ?? "",
    tariffs: entry?.tariffs ?? [],
  };
}

/** Adds an entry for a node's inbound, last in the order; true when added (the form then empties). */
export async function addEntry(nodeId: number, inboundTag: string, draft: EntryDraft): Promise<boolean> {
  const settings = settingsOf(draft);
  if (!settings) {
    $entryCreation.set({ isBusy: false, refusal: badPort() });
    return false;
  }
  const added = await tracked(
    (state) => $entryCreation.set(state),
    (headers) => api.panel.entries.post({ nodeId, inboundTag, ...settings }, { headers }),
  );
  if (!added) return false;
  $entries.set([...($entries.get() ?? []).filter((entry) => entry.id !== added.entry.id), added.entry]);
  showToast(translate("panel.entriesAdded", { name: added.entry.nodeName }), "success");
  return true;
}

const entryPath = (entry: Entry) => api.panel.entries({ id: entry.id });
const showChange = (entry: Entry) => (state: ChangeState) => $entryChanges.setKey(String(entry.id), state);

/** Saves a form's draft over the entry; true when saved (the form then closes, else it keeps what was typed). */
export async function editEntry(entry: Entry, draft: EntryDraft): Promise<boolean> {
  const settings = settingsOf(draft);
  if (!settings) {
    showChange(entry)({ isBusy: false, refusal: badPort() });
    return false;
  }
  const saved = await tracked(showChange(entry), (headers) => entryPath(entry).patch(settings, { headers }));
  if (!saved) return false;
  showAnswered([saved.entry]);
  showToast(translate("panel.entriesSaved"), "success");
  return true;
}

export async function setEntryEnabled(entry: Entry, isEnabled: boolean): Promise<void> {
  const saved = await tracked(showChange(entry), (headers) =>
    entryPath(entry).patch({ enabled: isEnabled }, { headers }),
  );
  if (!saved) return;
  showAnswered([saved.entry]);
  showToast(translate(isEnabled ? "panel.entriesSwitchedOn" : "panel.entriesSwitchedOff"), "success");
}

/**
 * Moves an entry one place up (-1) or down (1) in the order every subscription lists; the
 * server takes the whole order, and answers every entry as it now stands.
 */
export async function moveEntry(entry: Entry, by: -1 | 1): Promise<void> {
  const ids = ($entries.get() ?? []).map((item) => item.id);
  const from = ids.indexOf(entry.id);
  const to = from + by;
  if (from < 0 || to < 0 || to >= ids.length) return;
  [ids[from], ids[to]] = [ids[to] ?? entry.id, entry.id];
  const moved = await tracked(showChange(entry), (headers) =>
    api.panel.entries.order.post({ ids }, { headers }),
  );
  if (moved) $entries.set([...moved.entries].sort(byPosition));
}

/** Does the entry dial with this security and fingerprint ("" matches any; "none": no fingerprint)? */
export function matchesFilter(entry: Entry, filter: EntryFilter): boolean {
  const fingerprint = entry.dialed?.fingerprint ?? "none";
  return (
    (filter.security === "" || entry.dialed?.security === filter.security) &&
    (filter.fingerprint === "" || fingerprint === filter.fingerprint)
  );
}

export const toggleSelected = (entry: Entry) => {
  const selected = $selectedEntries.get();
  $selectedEntries.set(
    selected.includes(entry.id) ? selected.filter((id) => id !== entry.id) : [...selected, entry.id],
  );
};

/** Ticks every entry the filter matches now, and only those. */
export const selectMatching = (filter: EntryFilter) =>
  $selectedEntries.set(
    ($entries.get() ?? []).filter((entry) => matchesFilter(entry, filter)).map((e) => e.id),
  );

export const clearSelection = () => $selectedEntries.set([]);

/** How many ticked entries a change to many would reach. */
export const $selectedCount = computed($selectedEntries, (ids) => ids.length);

/**
 * One change to every ticked entry, by their ids: the entries the confirmation counted, not
 * whatever matches by the time it arrives. True when done (the selection then clears).
 */
export async function changeSelected(change: ManyChange): Promise<boolean> {
  const ids = [...$selectedEntries.get()];
  if (ids.length === 0) return false;
  const changes = change as EntrySettings;
  const changed = await tracked(
    (state) => $manyChange.set(state),
    (headers) => api.panel.entries.bulk.post({ ids, changes }, { headers }),
  );
  if (!changed) return false;
  showAnswered(changed.entries);
  clearSelection();
  showToast(translate("panel.entriesManyChanged", { count: changed.entries.length }), "success");
  return true;
}
