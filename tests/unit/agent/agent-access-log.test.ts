import { appendFileSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { parseAccessLine } from "../../../agent/access-log";
import { ConnectionBursts } from "../../../agent/connection-bursts";
import { LogTail } from "../../../agent/log-tail";
import { OpenConnections } from "../../../agent/open-connections";

const localTime = (text: string) => {
  const [date, time] = text.split(" ");
  const [year, month, day] = (date ?? "").split("/").map(Number);
  const [hour, minute, second] = (time ?? "").split(":").map(Number);
  return new Date(year ?? 0, (month ?? 1) - 1, day, hour, minute, second).getTime();
};

describe("access log lines", () => {
  test("V2Ray 4's accepted line (as this machine's v2ray writes it) gives tag, client and time, never the destination", () => {
    const line = parseAccessLine(
      "2026/11/26 01:08:00 127.0.0.1:50438 accepted tcp:secret-destination.example:443 [direct] email: dev-7f3a",
    );
    expect(line).toEqual({
      at: localTime("2026/11/26 01:08:00"),
      clientIp: "127.0.0.1",
      clientPort: 50438,
      inboundTag: undefined,
      tag: "dev-7f3a",
    });
    expect(JSON.stringify(line)).not.toContain("secret-destination");
  });

  test("Xray's line: `from`, microseconds, the inbound in the detour", () => {
    expect(
      parseAccessLine(
        "2026/11/26 01:08:00.123456 from 203.0.113.7:61000 accepted tcp:www.example.com:443 [kannt-reality >> direct] email: dev-1",
      ),
    ).toEqual({
      at: localTime("2026/11/26 01:08:00") + 123,
      clientIp: "203.0.113.7",
      clientPort: 61000,
      inboundTag: "kannt-reality",
      tag: "dev-1",
    });
    expect(
      parseAccessLine(
        "2026/11/26 01:08:00 tcp:198.51.100.2:4000 accepted udp:8.8.8.8:53 [kannt-vless -> direct] email: dev-2",
      )?.inboundTag,
    ).toBe("kannt-vless");
  });

  test("an IPv6 client, and an IPv4 one seen through a dual-stack socket, are spelled as ss spells them", () => {
    expect(
      parseAccessLine("2026/11/26 01:08:00 [2001:db8::1]:5000 accepted tcp:x:1 [direct] email: d"),
    ).toMatchObject({
      clientIp: "2001:db8::1",
      clientPort: 5000,
    });
    expect(
      parseAccessLine("2026/11/26 01:08:00 [::ffff:192.0.2.9]:5000 accepted tcp:x:1 [direct] email: d"),
    ).toMatchObject({
      clientIp: "192.0.2.9",
    });
  });

  test("rejected lines, lines without a user and other log noise are skipped", () => {
    for (const line of [
      "2026/11/26 01:08:00 127.0.0.1:48658 accepted tcp:127.0.0.1:0 [api]",
      "2026/11/26 01:08:00 127.0.0.1:50000 rejected  proxy/vless/encoding: invalid request user id",
      "2026/11/26 01:08:00 from 1.2.3.4:5 rejected proxy/vmess/encoding: invalid user email: dev-1",
      "2026/11/26 01:07:58 [Warning] v2ray.com/core: V2Ray 4.34.0 started",
      "2026/11/26 01:08:00 [fe80::1%eth0]:5000 accepted tcp:x:1 [direct] email: d",
      "2026/11/26 01:08:00 client.example:5000 accepted tcp:x:1 [direct] email: d",
      "",
    ])
      expect(parseAccessLine(line), line).toBeUndefined();
  });
});

describe("open connections per device", () => {
  const endpoint = (ip: string, port: number, seenAt = 1000) => ({ ip, port, seenAt });

  test("a device's endpoints are taken once, for closing", () => {
    const open = new OpenConnections();
    open.record("a", endpoint("10.0.0.1", 1));
    open.record("a", endpoint("10.0.0.1", 2));
    open.record("b", endpoint("10.0.0.2", 1));
    expect(open.take("a").map((item) => item.port)).toEqual([1, 2]);
    expect(open.take("a")).toEqual([]);
    expect(open.size).toBe(1);
  });

  test("a client port reused by another device (NAT) belongs to the newest, so revoking the old one spares it", () => {
    const open = new OpenConnections();
    open.record("old", endpoint("198.51.100.1", 40000));
    open.record("new", endpoint("198.51.100.1", 40000));
    expect(open.take("old")).toEqual([]);
    expect(open.take("new")).toHaveLength(1);
  });

  test("endpoints no longer connected are forgotten; recent ones stay until the next listing", () => {
    const open = new OpenConnections();
    open.record("a", endpoint("10.0.0.1", 1, 100));
    open.record("a", endpoint("10.0.0.1", 2, 100));
    open.record("a", endpoint("10.0.0.1", 3, 600));
    open.prune(new Set(["10.0.0.1:2"]), 500, 0);
    expect(open.take("a").map((item) => item.port)).toEqual([2, 3]);
  });

  test("without a socket listing, endpoints older than the cutoff go", () => {
    const open = new OpenConnections();
    open.record("a", endpoint("10.0.0.1", 1, 100));
    open.record("a", endpoint("10.0.0.1", 2, 900));
    open.prune(undefined, 1000, 500);
    expect(open.take("a").map((item) => item.port)).toEqual([2]);
  });
});

describe("following the access log", () => {
  const directory = mkdtempSync(join(tmpdir(), "kannt-agent-tail-"));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  test("reads only what is appended, whole lines only, and starts over after a rotation", async () => {
    const path = join(directory, "access.log");
    writeFileSync(path, "history line\n");
    const lines: string[] = [];
    const tail = new LogTail(path, (line) => lines.push(line));
    await tail.skipToEnd();

    appendFileSync(path, "first\nsec");
    await tail.poll();
    expect(lines).toEqual(["first"]);
    appendFileSync(path, "ond\n");
    await tail.poll();
    expect(lines).toEqual(["first", "second"]);

    renameSync(path, `${path}.1`);
    writeFileSync(path, "after rotation\n");
    await tail.poll();
    expect(lines).toEqual(["first", "second", "after rotation"]);

    writeFileSync(path, "truncated\n");
    await tail.poll();
    expect(lines.at(-1)).toBe("truncated");
  });

  test("at start the last bytes are read back, whole lines only, as history; a line still being written is news", async () => {
    const path = join(directory, "history.log");
    writeFileSync(path, "older line\nrecent one\nlast one\nbeing writ");
    const history: string[] = [];
    const lines: string[] = [];
    const tail = new LogTail(path, (line) => lines.push(line));
    // A bound in the middle of "older line": that piece is not a line.
    await tail.skipToEnd({ maxBytes: 33, onLine: (line) => history.push(line) });
    expect(history).toEqual(["recent one", "last one"]);
    // A bound right at a line's start keeps that line.
    const atLineStart: string[] = [];
    await new LogTail(path, () => undefined).skipToEnd({
      maxBytes: 30,
      onLine: (line) => atLineStart.push(line),
    });
    expect(atLineStart).toEqual(["recent one", "last one"]);
    appendFileSync(path, "ten\nnext\n");
    await tail.poll();
    expect(lines).toEqual(["being written", "next"]);
  });

  test("a whole log within the bound is read back from its first line", async () => {
    const path = join(directory, "short-history.log");
    writeFileSync(path, "first\nsecond\n");
    const history: string[] = [];
    const tail = new LogTail(path, () => undefined);
    await tail.skipToEnd({ maxBytes: 1 << 20, onLine: (line) => history.push(line) });
    expect(history).toEqual(["first", "second"]);
    expect(await tail.poll()).toBe(false);
  });

  test("a log that does not exist yet is read from its first line once the core creates it", async () => {
    const path = join(directory, "later.log");
    const lines: string[] = [];
    const tail = new LogTail(path, (line) => lines.push(line));
    await tail.skipToEnd();
    expect(await tail.poll()).toBe(false);
    writeFileSync(path, "hello\n");
    await tail.poll();
    expect(lines).toEqual(["hello"]);
  });
});

describe("connection events from access lines", () => {
  test("one per device and address per 10 minutes, from the first line of each burst", () => {
    let clock = 0;
    const bursts = new ConnectionBursts(() => clock);
    expect(bursts.isNew("dev-a", "203.0.113.7")).toBe(true);
    expect(bursts.isNew("dev-a", "203.0.113.7")).toBe(false);
    expect(bursts.isNew("dev-a", "198.51.100.9")).toBe(true);
    expect(bursts.isNew("dev-b", "203.0.113.7")).toBe(true);
    clock = 10 * 60_000 - 1;
    expect(bursts.isNew("dev-a", "203.0.113.7")).toBe(false);
    clock = 10 * 60_000;
    expect(bursts.isNew("dev-a", "203.0.113.7")).toBe(true);
    // The others' bursts are over: forgotten, so memory follows the last 10 minutes.
    expect(bursts.size).toBe(1);
  });

  test("memory stays bounded under a flood of addresses", () => {
    const bursts = new ConnectionBursts(() => 0);
    for (let index = 0; index < 120_000; index++)
      bursts.isNew("dev-a", `10.${index >> 16}.${(index >> 8) & 255}.${index & 255}`);
    expect(bursts.size).toBe(100_000);
  });
});
