import { describe, expect, test } from "vitest";
import {
  coreNames,
  decodeQueryStats,
  decodeSysStats,
  encodeAddUser,
  encodeQueryStats,
  encodeRemoveUser,
  parseUserStat,
} from "../../../agent/core-messages";

/**
 * The core API's messages are written by hand (no .proto files at run time), so each one
 * is checked byte for byte against bytes worked out by hand from the protobuf wire rules:
 * a key is (field << 3 | wire type), strings and messages are length-prefixed, defaults
 * are left out. Both cores' names are checked: they travel inside the messages.
 */
const ascii = (text: string) => [...new TextEncoder().encode(text)];
const bytes = (...parts: (number | number[])[]) => Uint8Array.from(parts.flat());

const uuid = "6f1c2b9e-3d4a-4f5b-8c7d-0e1f2a3b4c5d"; // 36 bytes

describe("core API names", () => {
  test("V2Ray 4 and Xray name the same services and messages under their own packages", () => {
    expect(coreNames("v2ray")).toEqual({
      handlerService: "v2ray.core.app.proxyman.command.HandlerService",
      statsService: "v2ray.core.app.stats.command.StatsService",
      addUserOperation: "v2ray.core.app.proxyman.command.AddUserOperation",
      removeUserOperation: "v2ray.core.app.proxyman.command.RemoveUserOperation",
      vlessAccount: "v2ray.core.proxy.vless.Account",
      vmessAccount: "v2ray.core.proxy.vmess.Account",
    });
    expect(coreNames("xray")).toEqual({
      handlerService: "xray.app.proxyman.command.HandlerService",
      statsService: "xray.app.stats.command.StatsService",
      addUserOperation: "xray.app.proxyman.command.AddUserOperation",
      removeUserOperation: "xray.app.proxyman.command.RemoveUserOperation",
      vlessAccount: "xray.proxy.vless.Account",
      vmessAccount: "xray.proxy.vmess.Account",
    });
  });
});

describe("AlterInboundRequest", () => {
  test("adding a VLESS user with Vision on Xray (a length of 147 takes a two-byte varint)", () => {
    const account = bytes(
      0x0a,
      0x24,
      ascii(uuid),
      0x12,
      0x10,
      ascii("xtls-rprx-vision"),
      0x1a,
      0x04,
      ascii("none"),
    ); // 62
    const accountMessage = bytes(0x0a, 0x18, ascii("xray.proxy.vless.Account"), 0x12, 0x3e, [...account]); // 90
    const user = bytes(0x12, 0x05, ascii("dev-1"), 0x1a, 0x5a, [...accountMessage]); // 99, level 0 left out
    const operation = bytes(0x0a, 0x63, [...user]); // 101
    const typed = bytes(0x0a, 0x2a, ascii("xray.app.proxyman.command.AddUserOperation"), 0x12, 0x65, [
      ...operation,
    ]); // 147
    const expected = bytes(0x0a, 0x0d, ascii("kannt-reality"), 0x12, 0x93, 0x01, [...typed]);

    const encoded = encodeAddUser(coreNames("xray"), "kannt-reality", {
      email: "dev-1",
      level: 0,
      account: { protocol: "vless", id: uuid, flow: "xtls-rprx-vision" },
    });
    expect([...encoded]).toEqual([...expected]);
  });

  test("adding a VLESS user without a flow on V2Ray leaves the flow off the wire", () => {
    const account = bytes(0x0a, 0x24, ascii(uuid), 0x1a, 0x04, ascii("none")); // 44
    const accountMessage = bytes(0x0a, 0x1e, ascii("v2ray.core.proxy.vless.Account"), 0x12, 0x2c, [
      ...account,
    ]); // 78
    const user = bytes(0x12, 0x05, ascii("dev-1"), 0x1a, 0x4e, [...accountMessage]); // 87
    const operation = bytes(0x0a, 0x57, [...user]); // 89
    const typed = bytes(0x0a, 0x30, ascii("v2ray.core.app.proxyman.command.AddUserOperation"), 0x12, 0x59, [
      ...operation,
    ]); // 141
    const expected = bytes(0x0a, 0x0b, ascii("kannt-vless"), 0x12, 0x8d, 0x01, [...typed]);

    const encoded = encodeAddUser(coreNames("v2ray"), "kannt-vless", {
      email: "dev-1",
      level: 0,
      account: { protocol: "vless", id: uuid, flow: "" },
    });
    expect([...encoded]).toEqual([...expected]);
  });

  test("adding a VMess user with alterId 0 (proto3's default, so only the id is written), on both cores", () => {
    const account = bytes(0x0a, 0x24, ascii(uuid)); // 38
    for (const [core, prefix] of [
      ["v2ray", "v2ray.core."],
      ["xray", "xray."],
    ] as const) {
      const accountType = ascii(`${prefix}proxy.vmess.Account`);
      const accountMessage = bytes(0x0a, accountType.length, accountType, 0x12, 0x26, [...account]);
      const user = bytes(0x12, 0x05, ascii("dev-1"), 0x1a, accountMessage.length, [...accountMessage]);
      const operation = bytes(0x0a, user.length, [...user]);
      const operationType = ascii(`${prefix}app.proxyman.command.AddUserOperation`);
      const typed = bytes(0x0a, operationType.length, operationType, 0x12, operation.length, [...operation]);
      // v2ray: 30 + 4 + 38 = 72 → user 81 → operation 83 → typed 48 + 4 + 83 = 135 (two-byte length)
      // xray: 24 + 4 + 38 = 66 → user 75 → operation 77 → typed 42 + 4 + 77 = 123 (one byte)
      const length = typed.length < 128 ? [typed.length] : [(typed.length & 0x7f) | 0x80, typed.length >> 7];
      expect(typed.length).toBe(core === "v2ray" ? 135 : 123);
      const expected = bytes(0x0a, 0x0b, ascii("kannt-vmess"), 0x12, length, [...typed]);

      const encoded = encodeAddUser(coreNames(core), "kannt-vmess", {
        email: "dev-1",
        level: 0,
        account: { protocol: "vmess", id: uuid },
      });
      expect([...encoded], core).toEqual([...expected]);
    }
  });

  test("removing a user by its email, on both cores", () => {
    const operation = bytes(0x0a, 0x05, ascii("dev-1")); // 7
    const v2rayType = ascii("v2ray.core.app.proxyman.command.RemoveUserOperation"); // 51
    expect([...encodeRemoveUser(coreNames("v2ray"), "kannt-vless", "dev-1")]).toEqual([
      ...bytes(0x0a, 0x0b, ascii("kannt-vless"), 0x12, 0x3e, 0x0a, 0x33, v2rayType, 0x12, 0x07, [
        ...operation,
      ]),
    ]);
    const xrayType = ascii("xray.app.proxyman.command.RemoveUserOperation"); // 45
    expect([...encodeRemoveUser(coreNames("xray"), "kannt-reality", "dev-1")]).toEqual([
      ...bytes(0x0a, 0x0d, ascii("kannt-reality"), 0x12, 0x38, 0x0a, 0x2d, xrayType, 0x12, 0x07, [
        ...operation,
      ]),
    ]);
  });
});

describe("StatsService", () => {
  test("QueryStatsRequest asks for every user's counters and resets them", () => {
    expect([...encodeQueryStats("user>>>", true)]).toEqual([
      ...bytes(0x0a, 0x07, ascii("user>>>"), 0x10, 0x01),
    ]);
  });

  test("QueryStatsResponse is read, counters over 32 bits included", () => {
    const up = bytes(0x0a, 0x1f, ascii("user>>>dev-1>>>traffic>>>uplink"), 0x10, 0xac, 0x02); // 300
    const down = bytes(
      0x0a,
      0x21,
      ascii("user>>>dev-1>>>traffic>>>downlink"),
      0x10,
      0x80,
      0x80,
      0x80,
      0x80,
      0x80,
      0x20,
    ); // 2^40
    const response = bytes(0x0a, up.length, [...up], 0x0a, down.length, [...down]);
    expect(decodeQueryStats(response)).toEqual([
      { name: "user>>>dev-1>>>traffic>>>uplink", value: 300 },
      { name: "user>>>dev-1>>>traffic>>>downlink", value: 2 ** 40 },
    ]);
    expect(parseUserStat("user>>>dev-1>>>traffic>>>downlink")).toEqual({
      email: "dev-1",
      direction: "downlink",
    });
    expect(parseUserStat("inbound>>>kannt-vless>>>traffic>>>uplink")).toBeUndefined();
  });

  test("SysStatsResponse gives the counters a restart resets", () => {
    // NumGoroutine 12, TotalAlloc 1000, Mallocs 5, Uptime 42
    const response = bytes(0x08, 0x0c, 0x20, 0xe8, 0x07, 0x30, 0x05, 0x50, 0x2a);
    expect(decodeSysStats(response)).toEqual({ uptimeSeconds: 42, totalAlloc: 1000, mallocs: 5 });
  });
});
