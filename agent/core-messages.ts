import { decodeText, ProtoWriter, readFields } from "./protobuf.ts";

/**
 * The core API's messages, written by hand after the cores' .proto files: Xray-core
 * (`xray.*`) and V2Ray 4.x (`v2ray.core.*`) share the field numbers and differ only in
 * the package names, which travel inside the messages (TypedMessage.type) and in the
 * gRPC method paths.
 */
export type CoreKind = "xray" | "v2ray";

export type CoreNames = {
  handlerService: string;
  statsService: string;
  addUserOperation: string;
  removeUserOperation: string;
  vlessAccount: string;
  vmessAccount: string;
};

export function coreNames(core: CoreKind): CoreNames {
  const prefix = core === "xray" ? "xray." : "v2ray.core.";
  return {
    handlerService: `${prefix}app.proxyman.command.HandlerService`,
    statsService: `${prefix}app.stats.command.StatsService`,
    addUserOperation: `${prefix}app.proxyman.command.AddUserOperation`,
    removeUserOperation: `${prefix}app.proxyman.command.RemoveUserOperation`,
    vlessAccount: `${prefix}proxy.vless.Account`,
    vmessAccount: `${prefix}proxy.vmess.Account`,
  };
}

/** What a core user is given: VLESS with the inbound's flow, or VMess (alterId 0, AEAD). */
export type CoreAccount = { protocol: "vless"; id: string; flow: string } | { protocol: "vmess"; id: string };

export type CoreUser = { email: string; level: number; account: CoreAccount };

/** common.serial.TypedMessage {type = 1, value = 2}. */
function typedMessage(type: string, value: Uint8Array): Uint8Array {
  return new ProtoWriter().string(1, type).bytesField(2, value).finish();
}

function accountMessage(names: CoreNames, account: CoreAccount): Uint8Array {
  if (account.protocol === "vless")
    // proxy.vless.Account {id = 1, flow = 2, encryption = 3}; a server-side user has no encryption but "none".
    return typedMessage(
      names.vlessAccount,
      new ProtoWriter().string(1, account.id).string(2, account.flow).string(3, "none").finish(),
    );
  // proxy.vmess.Account {id = 1, alter_id = 2}: alter_id 0 is proto3's default, so it is not
  // on the wire, which is also what Xray expects (it dropped the field).
  return typedMessage(names.vmessAccount, new ProtoWriter().string(1, account.id).finish());
}

/** AlterInboundRequest {tag = 1, operation = 2: AddUserOperation {user = 1: User {level = 1, email = 2, account = 3}}}. */
export function encodeAddUser(names: CoreNames, inboundTag: string, user: CoreUser): Uint8Array {
  const userMessage = new ProtoWriter()
    .uint(1, user.level)
    .string(2, user.email)
    .message(3, accountMessage(names, user.account))
    .finish();
  const operation = new ProtoWriter().message(1, userMessage).finish();
  return new ProtoWriter()
    .string(1, inboundTag)
    .message(2, typedMessage(names.addUserOperation, operation))
    .finish();
}

/** AlterInboundRequest {tag = 1, operation = 2: RemoveUserOperation {email = 1}}. */
export function encodeRemoveUser(names: CoreNames, inboundTag: string, email: string): Uint8Array {
  const operation = new ProtoWriter().string(1, email).finish();
  return new ProtoWriter()
    .string(1, inboundTag)
    .message(2, typedMessage(names.removeUserOperation, operation))
    .finish();
}

/** QueryStatsRequest {pattern = 1, reset = 2}. */
export function encodeQueryStats(pattern: string, reset: boolean): Uint8Array {
  return new ProtoWriter().string(1, pattern).bool(2, reset).finish();
}

export type Stat = { name: string; value: number };

/** QueryStatsResponse {repeated Stat stat = 1}, Stat {name = 1, value = 2}. */
export function decodeQueryStats(buffer: Uint8Array): Stat[] {
  const stats: Stat[] = [];
  for (const entry of readFields(buffer)) {
    if (entry.field !== 1 || entry.kind !== "bytes") continue;
    const stat: Stat = { name: "", value: 0 };
    for (const part of readFields(entry.value)) {
      if (part.field === 1 && part.kind === "bytes") stat.name = decodeText(part.value);
      if (part.field === 2 && part.kind === "varint") stat.value = part.value;
    }
    stats.push(stat);
  }
  return stats;
}

/** The counters of SysStatsResponse that only grow while one core process lives. */
export type SysStats = { uptimeSeconds: number; totalAlloc: number; mallocs: number };

/** SysStatsResponse {TotalAlloc = 4, Mallocs = 6, Uptime = 10, ...}. */
export function decodeSysStats(buffer: Uint8Array): SysStats {
  const stats: SysStats = { uptimeSeconds: 0, totalAlloc: 0, mallocs: 0 };
  for (const entry of readFields(buffer)) {
    if (entry.kind !== "varint") continue;
    if (entry.field === 4) stats.totalAlloc = entry.value;
    if (entry.field === 6) stats.mallocs = entry.value;
    if (entry.field === 10) stats.uptimeSeconds = entry.value;
  }
  return stats;
}

/** Per-user counters are named `user>>>{email}>>>traffic>>>uplink|downlink`. */
export function parseUserStat(name: string): { email: string; direction: "uplink" | "downlink" } | undefined {
  const parts = name.split(">>>");
  if (parts.length !== 4 || parts[0] !== "user" || parts[2] !== "traffic") return undefined;
  const direction = parts[3];
  if (direction !== "uplink" && direction !== "downlink") return undefined;
  return { email: parts[1] ?? "", direction };
}
