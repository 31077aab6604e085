/**
 * One accepted connection from the core's access log. V2Ray 4 writes
 *   `2026/11/26 01:02:03 127.0.0.1:54321 accepted tcp:example.com:443 [direct] email: TAG`
 * and Xray
 *   `2026/11/26 01:02:03.123456 from 127.0.0.1:54321 accepted tcp:example.com:443 [kannt-reality >> direct] email: TAG`.
 * The destination is dropped here, at parse time: nothing about where a customer goes
 * leaves the node, or even lives in the agent's memory.
 */
export type AccessLine = {
  /** Wall-clock ms of the log's own time stamp (the node's local time zone). */
  at: number;
  clientIp: string;
  clientPort: number;
  /** The inbound that took it, when the core writes it (Xray, newer V2Ray). */
  inboundTag?: string;
  /** The core user's email: the device tag. */
  tag: string;
};

const linePattern =
  /^(\d{4})\/(\d{2})\/(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d+))? +(?:from +)?(?:tcp:|udp:)?(\[[0-9A-Fa-f:.]+\]|[^\s:[\]]+):(\d+) +accepted +\S+(?: +\[([^\]]*)\])?.*?\bemail: ?(\S+)\s*$/;

/** The accepted line's fields, or undefined for anything else (rejected, untagged, noise). */
export function parseAccessLine(line: string): AccessLine | undefined {
  const match = linePattern.exec(line);
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second, fraction, host, port, detour, tag] = match;
  const milliseconds = fraction ? Number(fraction.slice(0, 3).padEnd(3, "0")) : 0;
  const at = new Date(
    Number(year),
    Number(month) - 1,
    Number(day),
    Number(hour),
    Number(minute),
    Number(second),
    milliseconds,
  ).getTime();
  const detourParts = detour?.split(/\s*(?:->|>>)\s*/);
  const clientIp = normalizeIp(host ?? "");
  // An address, nothing else (no host name, no zone): what the product stores and ss matches.
  if (!/^[0-9a-f:.]{2,45}$/.test(clientIp)) return undefined;
  return {
    at,
    clientIp,
    clientPort: Number(port),
    inboundTag: detourParts && detourParts.length === 2 ? detourParts[0] : undefined,
    tag: tag ?? "",
  };
}

/** `[::1]` → `::1`, `::ffff:1.2.3.4` → `1.2.3.4`: one spelling per address, as ss and the log differ. */
export function normalizeIp(host: string): string {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  return (mapped?.[1] ?? bare).toLowerCase();
}
