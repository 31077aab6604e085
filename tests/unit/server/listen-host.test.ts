import { mkdtempSync, rmSync } from "node:fs";
import { networkInterfaces, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { loadConfig } from "../../../bff/platform/config";
import { type RunningServer, startCapturedServer } from "../../helpers/captured-process";

// HOST: the address the server listens on. Unset it listens everywhere, so `npm start`
// needs no setting; behind a proxy on the same machine it is 127.0.0.1, so the port is
// not reachable from outside around the proxy's HTTPS and its /metrics rule.

const hostOf = (value?: string) =>
  loadConfig({ DATABASE_PATH: ":memory:", ...(value === undefined ? {} : { HOST: value }) }).host;

describe("loadConfig: HOST", () => {
  test("unset or blank means every interface, as Bun listens by default", () => {
    expect(hostOf()).toBeUndefined();
    expect(hostOf("")).toBeUndefined();
    expect(hostOf("  ")).toBeUndefined();
  });

  test.each([
    ["127.0.0.1", "127.0.0.1"],
    ["0.0.0.0", "0.0.0.0"],
    ["10.0.0.21", "10.0.0.21"],
    ["::1", "::1"],
    ["::", "::"],
    ["[::1]", "::1"],
    ["2001:db8::21", "2001:db8::21"],
    ["localhost", "localhost"],
    ["app-1.internal.example", "app-1.internal.example"],
  ])("%s listens on %s", (value, host) => {
    expect(hostOf(value)).toBe(host);
  });

  test.each([
    "127.0.0.1:3000",
    "http://127.0.0.1",
    "10.0.0.300",
    "10.0.0",
    "1.2.3.4.5",
    "every interface",
    "-app.example",
    "[127.0.0.1]",
    "localhost/",
  ])("%s stops the start, naming HOST, the value and what is expected", (value) => {
    expect(() => hostOf(value)).toThrow(`HOST must be the address to listen on`);
    expect(() => hostOf(value)).toThrow(`got "${value}"`);
  });
});

describe("a server started with HOST=127.0.0.1", () => {
  const folder = mkdtempSync(join(tmpdir(), "kannt-host-"));
  let server: RunningServer | undefined;
  afterAll(async () => {
    await server?.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  /**
   * Whether anything answers GET /api/health at `origin` (a refused connection is no answer).
   * Where nothing should answer, a silent address is given up after `limitMs`; where the
   * server should, it is waited for as long as a busy machine takes.
   */
  const answers = async (origin: string, limitMs?: number) => {
    try {
      const signal = limitMs === undefined ? undefined : AbortSignal.timeout(limitMs);
      return (await fetch(`${origin}/api/health`, { signal })).ok;
    } catch {
      return false;
    }
  };

  test("answers on 127.0.0.1, says so in its listening line, and not on the machine's other addresses", async () => {
    server = await startCapturedServer({
      HOST: "127.0.0.1",
      APP_MODE: "demo",
      DATABASE_PATH: join(folder, "app.db"),
      STATIC_DIR: join(folder, "no-site"),
      BILLING_INTERVAL_SECONDS: "0",
      LOG_LEVEL: "info",
    });
    const port = new URL(server.origin).port;
    expect(await answers(`http://127.0.0.1:${port}`)).toBe(true);
    const listening = server
      .stdout()
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as { message: string; url?: string; host?: string })
      .find((line) => line.message === "listening");
    expect(listening).toMatchObject({ url: `http://127.0.0.1:${port}`, host: "127.0.0.1" });
    // IPv6 loopback, and whatever outward addresses this machine has (none in some sandboxes).
    const elsewhere = Object.values(networkInterfaces())
      .flat()
      .filter((address) => address !== undefined && !address.internal && address.family === "IPv4")
      .map((address) => `http://${address?.address}:${port}`);
    for (const origin of [`http://[::1]:${port}`, ...elsewhere])
      expect(await answers(origin, 3000), origin).toBe(false);
  });
});
