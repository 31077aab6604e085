import { linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { accessLogProblem } from "../../../agent/access-log-check";
import { readSettings } from "../../../agent/settings";
import { exitCodeOf, spawnCaptured } from "../../helpers/captured-process";
import { settingsErrorMessage } from "../../helpers/settings-error";

const complete = {
  KANNT_URL: "https://kannt.example/",
  NODE_KEY: "node_abc",
  NODE_HOST: "vpn1.kannt.example",
  CORE: "xray",
  CORE_CONFIG: "/usr/local/etc/xray/config.json",
  CORE_ACCESS_LOG: "/var/log/xray/access.log",
  AGENT_STATE: "/var/lib/kannt-agent/state.json",
};

const agentVariables = [...Object.keys(complete), "CORE_API"];
const withoutAgentVariables = () =>
  Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !agentVariables.includes(name)),
  ) as Record<string, string>;

/** A core config with one inbound that logs its access to a file of its own (both made here). */
function coreWithAccessLog(directory: string, logName: string, configName: string) {
  const accessLog = join(directory, logName);
  writeFileSync(accessLog, "");
  const config = join(directory, configName);
  writeFileSync(
    config,
    JSON.stringify({
      log: { access: accessLog },
      inbounds: [{ tag: "kannt-v", port: 443, protocol: "vless" }],
    }),
  );
  return { accessLog, config };
}

describe("the agent's environment", () => {
  test("a complete environment, with the API's default address", () => {
    expect(readSettings(complete)).toEqual({
      productUrl: "https://kannt.example",
      nodeKey: "node_abc",
      nodeHost: "vpn1.kannt.example",
      core: "xray",
      coreApi: "127.0.0.1:10085",
      coreConfigPath: "/usr/local/etc/xray/config.json",
      accessLogPath: "/var/log/xray/access.log",
      statePath: "/var/lib/kannt-agent/state.json",
    });
    expect(
      readSettings({ ...complete, CORE: "v2ray", CORE_API: "127.0.0.1:8080", NODE_HOST: "2001:db8::1" }),
    ).toMatchObject({
      core: "v2ray",
      coreApi: "127.0.0.1:8080",
      nodeHost: "2001:db8::1",
    });
  });

  test("every missing variable is named at once", () => {
    const message = settingsErrorMessage(() => readSettings({}));
    for (const name of Object.keys(complete)) expect(message).toContain(`${name} is not set`);
    expect(message).not.toContain("CORE_API");
  });

  test.each([
    ["KANNT_URL", "kannt.example", /KANNT_URL is not a URL/],
    ["KANNT_URL", "ftp://kannt.example", /KANNT_URL must be an http\(s\) origin/],
    ["CORE", "sing-box", /CORE must be xray or v2ray \(got "sing-box"\)/],
    ["CORE_API", "10085", /CORE_API must be host:port/],
    ["NODE_HOST", "https://vpn.example:443", /NODE_HOST must be a host name or IP address/],
    ["NODE_KEY", "node_abc def", /NODE_KEY holds whitespace/],
  ])("%s=%s is refused with a message naming it", (name, value, message) => {
    expect(() => readSettings({ ...complete, [name]: value })).toThrow(message);
  });
});

describe("`npm run agent` with a bad configuration", () => {
  const directory = mkdtempSync(join(tmpdir(), "kannt-agent-settings-"));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  test("stops at once with the variables' names, before touching anything", async () => {
    const agent = spawnCaptured("agent/main.ts", { ...withoutAgentVariables(), CORE: "xray" });
    expect(await exitCodeOf(agent, 60_000)).toBe(1);
    expect(agent.stderr()).toContain("kannt-agent: KANNT_URL is not set");
    expect(agent.stderr()).toContain("kannt-agent: AGENT_STATE is not set");
  });

  test("stops on a core config it cannot manage, naming CORE_CONFIG and the inbound", async () => {
    const config = join(directory, "config.json");
    writeFileSync(
      config,
      JSON.stringify({ inbounds: [{ tag: "kannt-x", port: 443, protocol: "shadowsocks" }] }),
    );
    const agent = spawnCaptured("agent/main.ts", {
      ...withoutAgentVariables(),
      ...complete,
      CORE_CONFIG: config,
      AGENT_STATE: join(directory, "state.json"),
    });
    expect(await exitCodeOf(agent, 60_000)).toBe(1);
    expect(agent.stderr()).toContain(
      `kannt-agent: CORE_CONFIG (${config}) inbound kannt-x: protocol "shadowsocks"`,
    );
  });

  test("stops, naming CORE_ACCESS_LOG, when it is not the file the core logs to (a typo would leave revoked connections open)", async () => {
    const { accessLog, config } = coreWithAccessLog(directory, "core-access.log", "logging.json");
    writeFileSync(join(directory, "acess.log"), "");
    const agent = spawnCaptured("agent/main.ts", {
      ...withoutAgentVariables(),
      ...complete,
      CORE_CONFIG: config,
      CORE_ACCESS_LOG: join(directory, "acess.log"),
      AGENT_STATE: join(directory, "state.json"),
    });
    expect(await exitCodeOf(agent, 60_000)).toBe(1);
    expect(agent.stderr()).toContain(
      `kannt-agent: CORE_ACCESS_LOG (${join(directory, "acess.log")}) is not the file the core's config writes its access log to (${accessLog})`,
    );
  });

  test("stops on an AGENT_STATE it cannot write", async () => {
    const { accessLog, config } = coreWithAccessLog(directory, "good-access.log", "good.json");
    const agent = spawnCaptured("agent/main.ts", {
      ...withoutAgentVariables(),
      ...complete,
      CORE_CONFIG: config,
      CORE_ACCESS_LOG: accessLog,
      AGENT_STATE: join(directory, "no-such-folder", "state.json"),
    });
    expect(await exitCodeOf(agent, 60_000)).toBe(1);
    expect(agent.stderr()).toContain("kannt-agent: AGENT_STATE");
    expect(agent.stderr()).toContain("cannot be written");
  });
});

describe("CORE_ACCESS_LOG against the core's config", () => {
  const directory = mkdtempSync(join(tmpdir(), "kannt-agent-log-check-"));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));
  const accessLog = join(directory, "access.log");
  writeFileSync(accessLog, "");
  const configWith = (log: unknown) => JSON.stringify({ log, inbounds: [] });

  test("the file the config names, however spelled (a link to it, a hard link), passes", async () => {
    expect(await accessLogProblem(accessLog, configWith({ access: accessLog }))).toBeUndefined();
    symlinkSync(accessLog, join(directory, "link.log"));
    expect(
      await accessLogProblem(join(directory, "link.log"), configWith({ access: accessLog })),
    ).toBeUndefined();
    linkSync(accessLog, join(directory, "hard.log"));
    expect(
      await accessLogProblem(accessLog, configWith({ access: join(directory, "hard.log") })),
    ).toBeUndefined();
  });

  test.each([
    ["no access log in the config", {}, /log\.access is not set/],
    ["the access log turned off", { access: "none" }, /log\.access is "none"/],
    ["a relative path in the config", { access: "access.log" }, /relative path/],
    ["client addresses masked (Xray)", { access: "ACCESS", maskAddress: "/16" }, /masks client addresses/],
    [
      "another file",
      { access: join(directory, "other.log") },
      /is not the file the core's config writes its access log to/,
    ],
  ])("%s: refused, naming the variable", async (_case, log, reason) => {
    const settings = JSON.parse(JSON.stringify(log).replace("ACCESS", accessLog)) as Record<string, string>;
    writeFileSync(join(directory, "other.log"), "");
    const problem = await accessLogProblem(accessLog, configWith(settings));
    expect(problem).toMatch(/^CORE_ACCESS_LOG \(/);
    expect(problem).toMatch(reason);
  });

  test("a file that is missing or cannot be read is refused", async () => {
    const missing = join(directory, "missing.log");
    expect(await accessLogProblem(missing, configWith({ access: missing }))).toMatch(
      /^CORE_ACCESS_LOG \(.*missing\.log\) cannot be read: .*Start the core first/,
    );
    // Root reads any file: unreadable means a folder in its place here.
    const folder = join(directory, "folder.log");
    mkdirSync(folder);
    expect(await accessLogProblem(folder, configWith({ access: folder }))).toMatch(/cannot be read/);
  });
});
