import type { TranslationKey } from "../../lib/i18n/runtime";
import type { useTranslation } from "../../lib/i18n/use-translation";
import type { Refusal } from "../../stores/panel-change";
import type { VpnNode } from "../../stores/panel-nodes";

/** The Nodes screen's words: its refusals, and how its figures read; of a node as the Nodes store holds it. */
export type { VpnNode };

type T = ReturnType<typeof useTranslation>["t"];

/**
 * A refusal in the Nodes screen's words, by its code; an invalid name is any bad input here.
 * The screen keeps its own words, as none reads as the server's message for its code (that one
 * names the node, or says "there is no node with this id" where the screen says to reload); the
 * server's message is shown under them as it came.
 */
export function nodeRefusalKey(refusal: Refusal): TranslationKey {
  if (refusal.status === undefined) return "panel.connectionFailed";
  switch (refusal.code) {
    case "invalid_node_name":
    case "invalid_input":
    case "invalid_request":
      return "panel.nodesInvalid";
    case "admin_only":
      return "panel.forbidden";
    case "node_not_found":
      return "panel.nodesGone";
    case "node_name_taken":
      return "panel.nodesNameTaken";
    default:
      return "panel.requestFailed";
  }
}

/**
 * "up to date", or how far behind in the largest whole unit that fits; "never connected" for
 * a node whose agent never reported (null), which has no lag to speak of.
 */
export function lagText(seconds: number | null, t: T): string {
  if (seconds === null) return t("panel.nodesNeverConnected");
  if (seconds <= 0) return t("panel.nodesUpToDate");
  if (seconds < 60) return t("panel.nodesLagSeconds", { count: seconds });
  if (seconds < 3_600) return t("panel.nodesLagMinutes", { count: Math.floor(seconds / 60) });
  if (seconds < 86_400) return t("panel.nodesLagHours", { count: Math.floor(seconds / 3_600) });
  return t("panel.nodesLagDays", { count: Math.floor(seconds / 86_400) });
}

/**
 * The node's core runs, holds what the allow-list has and has applied every change. A core
 * that is down is not in sync, whatever its agent last applied.
 */
export const isInSync = (node: VpnNode) =>
  node.coreState !== "down" &&
  node.syncLagSeconds === 0 &&
  node.credentials.held === node.credentials.expected;

export type NodeState = "disabled" | "coreDown" | "online" | "offline";

/**
 * What the State column says: disabled; core down when the agent reports (it is online) that
 * its core does not answer, which serves nobody; online; or offline.
 */
export function nodeState(node: VpnNode): NodeState {
  if (node.disabled) return "disabled";
  if (!node.online) return "offline";
  return node.coreState === "down" ? "coreDown" : "online";
}

/**
 * ["VLESS 443", "tcp reality"]: what a client app needs to know of an inbound, in its own
 * terms, in two halves that a narrow column may put on two lines.
 */
export const inboundParts = (inbound: VpnNode["inbounds"][number]): [string, string] => [
  `${inbound.protocol.toUpperCase()} ${inbound.port}`,
  `${inbound.network} ${inbound.security}`,
];

/** "VLESS 443 tcp reality". */
export const inboundText = (inbound: VpnNode["inbounds"][number]) => inboundParts(inbound).join(" ");
