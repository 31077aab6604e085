import { appendFileSync, mkdtempSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { parseAccessLine } from "../../../agent/access-log";
import { ConnectionBursts } from "../../../agent/connection-bursts";
import { readLinesBackwards } from "../../../agent/log-history";
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

  test("a device with thousands of connections has every one of them taken for closing, the oldest included", () => {
    const open = new OpenConnections();
    open.record("dev-stream", endpoint("203.0.113.7", 40000));
    for (let port = 1; port <= 5_000; port++)
      open.record("dev-stream", endpoint("203.0.113.7", 40000 + port));
    const taken = open.take("dev-stream");
    expect(taken).toHaveLength(5_001);
    expect(taken[0]?.port).toBe(40000);
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

  test("at start the end is marked at the last whole line: a line still being written is news", async () => {
    const path = join(directory, "history.log");
    writeFileSync(path, "older line\nrecent one\nlast one\nbeing writ");
    const lines: string[] = [];
    const tail = new LogTail(path, (line) => lines.push(line));
    expect(await tail.skipToEnd()).toBe("older line\nrecent one\nlast one\n".length);
    appendFileSync(path, "ten\nnext\n");
    await tail.poll();
    expect(lines).toEqual(["being written", "next"]);
  });

  test("history is read backwards, newest line first, until the reader has what it needs", async () => {
    const path = join(directory, "backwards.log");
    writeFileSync(path, "first\nsecond\nthird\nfourth\n");
    const all: string[] = [];
    expect(await readLinesBackwards(path, 26, (line) => all.push(line) > 0, 1 << 20)).toEqual({
      bytesRead: 26,
      isWhole: true,
    });
    expect(all).toEqual(["fourth", "third", "second", "first"]);
    const untilSecond: string[] = [];
    await readLinesBackwards(path, 26, (line) => untilSecond.push(line) > 0 && line !== "second", 1 << 20);
    expect(untilSecond).toEqual(["fourth", "third", "second"]);
    // From a given end: what came after it is not history.
    const fromThird: string[] = [];
    await readLinesBackwards(path, 19, (line) => fromThird.push(line) > 0, 1 << 20);
    expect(fromThird).toEqual(["third", "second", "first"]);
    // A bound in the middle of "second": that piece is not a line.
    const bounded: string[] = [];
    expect(await readLinesBackwards(path, 26, (line) => bounded.push(line) > 0, 16)).toMatchObject({
      isWhole: false,
    });
    expect(bounded).toEqual(["fourth", "third"]);
  });

  test("a line searched for is found behind more than 10 MB of other lines, across the read chunks", async () => {
    const path = join(directory, "busy.log");
    const wanted =
      "2026/11/26 01:08:00 203.0.113.7:40001 accepted tcp:example.com:443 [direct] email: dev-stream";
    const other = (index: number) =>
      `2026/11/26 01:09:00 198.51.100.${index % 250}:${10_000 + (index % 50_000)} accepted tcp:example.com:443 [direct] email: dev-other-${index % 97}\n`;
    const filler: string[] = [];
    for (let index = 0; index < 130_000; index++) filler.push(other(index));
    writeFileSync(path, `${wanted}\n${filler.join("")}`);
    const end = statSync(path).size;
    expect(end).toBeGreaterThan(10 * 1024 * 1024);
    let seen = 0;
    let found: string | undefined;
    const result = await readLinesBackwards(
      path,
      end,
      (line) => {
        seen++;
        if (line.includes("dev-stream")) found = line;
        return found === undefined;
      },
      256 * 1024 * 1024,
    );
    expect(found).toBe(wanted);
    expect(seen).toBe(130_001);
    expect(result.bytesRead).toBe(end);
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
