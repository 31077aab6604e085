import type { TranslationKey } from "../../lib/i18n/runtime";
import type { Refusal } from "../../stores/panel-change";
import type { Entry } from "../../stores/panel-entries";

/** The Entries and Probes sections' words: their refusals, and how an entry's state reads. */
export type { Entry };

/**
 * A refusal of an entry's change, by its code. The server's message (which names the field it
 * refused) is shown under these words as it came.
 */
export function entryRefusalKey(refusal: Refusal): TranslationKey {
  if (refusal.status === undefined) return "panel.connectionFailed";
  switch (refusal.code) {
    case "invalid_entry":
    case "invalid_input":
    case "invalid_request":
      return "panel.entriesInvalid";
    case "entry_not_found":
    case "node_not_found":
      return "panel.entriesGone";
    case "entry_order_incomplete":
      return "panel.entriesOrderStale";
    case "admin_only":
      return "panel.forbidden";
    default:
      return "panel.requestFailed";
  }
}

/** A probe's refusal, by its code. */
export function probeRefusalKey(refusal: Refusal): TranslationKey {
  if (refusal.status === undefined) return "panel.connectionFailed";
  switch (refusal.code) {
    case "invalid_probe_name":
    case "invalid_input":
    case "invalid_request":
      return "panel.nodesInvalid";
    case "probe_name_taken":
      return "panel.probesNameTaken";
    case "probe_not_found":
      return "panel.probesGone";
    case "admin_only":
      return "panel.forbidden";
    default:
      return "panel.requestFailed";
  }
}

/** Why an entry is out of subscriptions, in words; in them when `out` is null. */
export const outKeys = {
  in: "panel.entriesIn",
  switchedOff: "panel.entriesOutSwitchedOff",
  nodeDisabled: "panel.entriesOutNodeDisabled",
  inboundGone: "panel.entriesOutInboundGone",
  silent: "panel.entriesOutSilent",
  coreDown: "panel.entriesOutCoreDown",
  notSyncing: "panel.entriesOutNotSyncing",
  probeDown: "panel.entriesOutProbeDown",
} as const satisfies Record<NonNullable<Entry["out"]> | "in", TranslationKey>;

/**
 * Green in subscriptions; grey when the operator took it out (switched off, node disabled);
 * red when something failed: a probe cannot get through, the node is silent, its core is down,
 * it does not keep up with the allow-list, or the node no longer has the inbound.
 */
export type EntryTone = "in" | "off" | "failing";

export function entryTone(entry: Entry): EntryTone {
  if (entry.out === null) return "in";
  return entry.out === "switchedOff" || entry.out === "nodeDisabled" ? "off" : "failing";
}

/** Since when the probes find it down: the earliest of the failing probes' verdicts. */
export function downSince(entry: Entry): string | undefined {
  const down = entry.probes.filter((probe) => !probe.up).map((probe) => probe.since);
  return down.sort()[0];
}

/** "vpn.example.net:443", "[2001:db8::1]:443": where client apps dial; "?" for a node with no address yet. */
export function dialedAddress(entry: Entry): string | undefined {
  if (!entry.dialed) return undefined;
  const address = entry.dialed.address ?? "?";
  return `${address.includes(":") ? `[${address}]` : address}:${entry.dialed.port}`;
}

/** "VLESS tcp reality": what the entry is, in client apps' own terms. */
export const transportText = (dialed: NonNullable<Entry["dialed"]>) =>
  `${dialed.protocol.toUpperCase()} ${dialed.network} ${dialed.security}`;

/** The share of the node's connections that succeeded, as a whole percent. */
export const percent = (rate: number) => `${Math.round(rate * 100)}%`;
