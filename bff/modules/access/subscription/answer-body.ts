import { clashConfig } from "./clash-config";
import type { ClientProfile } from "./client-agents";
import type { SubscriptionFormat } from "./client-format";
import { isAdmitted } from "./reality-admission";
import type { ServerEntry } from "./server-entries";
import { shareLinksBody } from "./share-links";
import { isSingBoxSupported, singBoxConfig } from "./singbox-config";
import { xrayConfig } from "./xray-config";

/**
 * The entries an app is given of those the answer lists: what its format can carry
 * (sing-box has no XHTTP), and no REALITY server that would refuse its core's handshake.
 */
export function entriesFor(
  format: SubscriptionFormat,
  client: ClientProfile,
  entries: readonly ServerEntry[],
): ServerEntry[] {
  return entries.filter(
    (entry) =>
      (format !== "singbox" || isSingBoxSupported(entry.inbound)) && isAdmitted(entry.inbound, client),
  );
}

/** The body in `format`; sing-box's dialect follows the app's core version (singbox-route.ts). */
export function bodyOf(
  format: SubscriptionFormat,
  client: ClientProfile,
  uuid: string,
  entries: ServerEntry[],
): string {
  switch (format) {
    case "singbox":
      return singBoxConfig(uuid, entries, client.family === "singbox" ? client.coreVersion : undefined);
    case "clash":
      return clashConfig(uuid, entries);
    case "xray":
      return xrayConfig(uuid, entries);
    case "base64":
      return shareLinksBody(uuid, entries);
  }
}
