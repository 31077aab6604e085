import type { InboundReport } from "../../../../agent/contract/node-api";
import type { ClientFamily, ClientProfile } from "./client-agents";
import { compareVersions } from "./client-version";

/**
 * REALITY and client versions (DESIGN §8): an Xray server refuses a REALITY client whose
 * handshake names a version below its `minClientVer` (the report's `minClientVer`; 26.3.27
 * by default since Xray 26.7.11). The client writes its version into the first bytes of the
 * ClientHello's session id, and not every core writes its own:
 * - sing-box writes 1.8.1 (common/tls/reality_client.go: SessionId[0..2] = 1, 8, 1);
 * - Mihomo writes 1.8.2 (component/tls/reality.go: 1, 8, 2);
 * - Xray writes its own version, assumed current unless the agent names an older core.
 * An entry such a server would refuse is not sent to that family: an app would list a
 * server that never connects.
 */
const presentedVersions: Record<ClientFamily, string | undefined> = {
  singbox: "1.8.1",
  mihomo: "1.8.2",
  xray: undefined,
};

/** The version a client's REALITY handshake names; undefined: current. */
export function presentedRealityVersion(client: Pick<ClientProfile, "family" | "coreVersion">) {
  return presentedVersions[client.family] ?? client.coreVersion;
}

export function isAdmitted(inbound: InboundReport, client: Pick<ClientProfile, "family" | "coreVersion">) {
  if (inbound.security !== "reality" || !inbound.minClientVer) return true;
  const presented = presentedRealityVersion(client);
  return presented === undefined || compareVersions(presented, inbound.minClientVer) >= 0;
}
