import { describe, expect, test } from "vitest";
import { translator } from "../../../core/i18n";
import {
  inboundText,
  isInSync,
  lagText,
  nodeRefusalKey,
  nodeState,
  type VpnNode,
} from "../../../src/islands/panel/nodes-calls";

const t = translator("en");
const ru = translator("ru");
const node = (changes: Partial<VpnNode>): VpnNode => ({
  id: 1,
  name: "fi-hel-1",
  host: "vpn.example.net",
  online: true,
  lastSeenAt: "2026-11-22T12:00:00.000Z",
  core: "xray",
  coreVersion: "25.1.1",
  coreState: "up",
  inbounds: [],
  credentials: { held: 3, expected: 3 },
  appliedVersion: 7,
  syncLagSeconds: 0,
  trafficToday: { upload: 0, download: 0 },
  disabled: false,
  createdAt: "2026-11-01T00:00:00.000Z",
  oldKeyLastUsedAt: null,
  refusedAgent: null,
  ...changes,
});

describe("the Nodes screen's words", () => {
  test("a sync lag reads in the largest whole unit that fits, and none when up to date", () => {
    expect(lagText(0, t)).toBe("none");
    expect(lagText(45, t)).toBe("45 s");
    expect(lagText(90, t)).toBe("1 min");
    expect(lagText(7_300, t)).toBe("2 h");
    expect(lagText(3 * 86_400 + 5, t)).toBe("3 d");
    expect(lagText(90, ru)).toBe("1 мин");
    // A node whose agent never reported has no lag: it never connected.
    expect(lagText(null, t)).toBe("never connected");
    expect(lagText(null, ru)).toBe("ни разу не подключался");
  });

  test("a node whose agent reports its core down reads as core down, never online or in sync", () => {
    const down = node({ coreState: "down", credentials: { held: 0, expected: 0 } });
    expect(nodeState(down)).toBe("coreDown");
    expect(isInSync(down)).toBe(false);
    expect(nodeState(node({}))).toBe("online");
    // Offline or disabled says more than what its core did when last heard from.
    expect(nodeState(node({ coreState: "down", online: false }))).toBe("offline");
    expect(nodeState(node({ coreState: "down", online: false, disabled: true }))).toBe("disabled");
    expect(t("panel.nodesCoreDown")).toBe("Core down");
  });

  test("in sync only with every credential held and every change applied", () => {
    expect(isInSync(node({}))).toBe(true);
    expect(isInSync(node({ credentials: { held: 2, expected: 3 } }))).toBe(false);
    expect(isInSync(node({ syncLagSeconds: 4 }))).toBe(false);
  });

  test("an inbound in the terms client apps use; a refusal by what its code means here", () => {
    expect(
      inboundText({ tag: "kannt", protocol: "vless", port: 443, network: "tcp", security: "reality" }),
    ).toBe("VLESS 443 tcp reality");
    expect(nodeRefusalKey({ status: 409, code: "node_name_taken" })).toBe("panel.nodesNameTaken");
    expect(nodeRefusalKey({ status: 400, code: "invalid_node_name" })).toBe("panel.nodesInvalid");
    expect(nodeRefusalKey({ status: 404, code: "node_not_found" })).toBe("panel.nodesGone");
    expect(nodeRefusalKey({ status: 403, code: "admin_only" })).toBe("panel.forbidden");
    expect(nodeRefusalKey({ status: undefined })).toBe("panel.connectionFailed");
    // The code decides: a status alone says nothing of what went wrong.
    expect(nodeRefusalKey({ status: 409 })).toBe("panel.requestFailed");
  });
});
