import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { readProbeSettings } from "../../../agent/probe/probe-settings";
import { exitCodeOf, spawnCaptured } from "../../helpers/captured-process";
import { settingsErrorMessage } from "../../helpers/settings-error";

const complete = {
  KANNT_URL: "https://kannt.example/",
  PROBE_KEY: "probe_abc",
  CORE: "xray",
  CORE_BIN: "/usr/local/bin/xray",
  AGENT_STATE: "/var/lib/kannt-probe/state.json",
};

const probeVariables = [
  ...Object.keys(complete),
  "AGENT_MODE",
  "PROBE_TARGET",
  "PROBE_INTERVAL_SECONDS",
  "NODE_KEY",
  "NODE_HOST",
  "CORE_CONFIG",
  "CORE_ACCESS_LOG",
  "CORE_API",
];
const withoutProbeVariables = () =>
  Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !probeVariables.includes(name)),
  ) as Record<string, string>;

describe("the probe agent's environment", () => {
  test("a complete environment: the product's own health as the target, once a minute", () => {
    expect(readProbeSettings(complete)).toEqual({
      productUrl: "https://kannt.example",
      probeKey: "probe_abc",
      core: "xray",
      coreBinary: "/usr/local/bin/xray",
      target: "https://kannt.example/api/health",
      intervalSeconds: 60,
      statePath: "/var/lib/kannt-probe/state.json",
    });
    expect(
      readProbeSettings({
        ...complete,
        CORE: "v2ray",
        PROBE_TARGET: "http://203.0.113.5:8080/known",
        PROBE_INTERVAL_SECONDS: "5",
      }),
    ).toMatchObject({ core: "v2ray", target: "http://203.0.113.5:8080/known", intervalSeconds: 5 });
  });

  test("every missing variable is named at once; the node's own variables are not asked for", () => {
    const message = settingsErrorMessage(() => readProbeSettings({}));
    for (const name of Object.keys(complete)) expect(message).toContain(`${name} is not set`);
    for (const name of ["NODE_KEY", "NODE_HOST", "CORE_CONFIG", "CORE_ACCESS_LOG", "PROBE_TARGET"])
      expect(message).not.toContain(name);
  });

  test("several bad values are all named in one message", () => {
    expect(() =>
      readProbeSettings({
        ...complete,
        CORE: "sing-box",
        PROBE_TARGET: "ftp://kannt.example/x",
        PROBE_INTERVAL_SECONDS: "0",
      }),
    ).toThrow(
      /CORE must be xray or v2ray[\s\S]*PROBE_TARGET must be an http\(s\) URL[\s\S]*PROBE_INTERVAL_SECONDS/,
    );
  });

  test.each([
    ["KANNT_URL", "kannt.example", /KANNT_URL is not a URL/],
    ["PROBE_KEY", "probe_abc def", /PROBE_KEY holds whitespace/],
    ["PROBE_TARGET", "not a url", /PROBE_TARGET is not a URL/],
    [
      "PROBE_INTERVAL_SECONDS",
      "1.5",
      /PROBE_INTERVAL_SECONDS must be a whole number of seconds from 1 to 3600/,
    ],
    ["PROBE_INTERVAL_SECONDS", "7200", /PROBE_INTERVAL_SECONDS must be a whole number/],
    ["PROBE_INTERVAL_SECONDS", "soon", /PROBE_INTERVAL_SECONDS must be a whole number/],
  ])("%s=%s is refused with a message naming it", (name, value, message) => {
    expect(() => readProbeSettings({ ...complete, [name]: value })).toThrow(message);
  });
});

describe("`AGENT_MODE=probe npm run agent` with a bad configuration", () => {
  const directory = mkdtempSync(join(tmpdir(), "kannt-probe-settings-"));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  test("stops at once with every bad variable's name", async () => {
    const agent = spawnCaptured("agent/main.ts", {
      ...withoutProbeVariables(),
      AGENT_MODE: "probe",
      CORE: "v2ray",
      PROBE_INTERVAL_SECONDS: "never",
    });
    expect(await exitCodeOf(agent, 60_000)).toBe(1);
    expect(agent.stderr()).toContain("kannt-agent: KANNT_URL is not set");
    expect(agent.stderr()).toContain("kannt-agent: PROBE_KEY is not set");
    expect(agent.stderr()).toContain("kannt-agent: CORE_BIN is not set");
    expect(agent.stderr()).toContain("kannt-agent: PROBE_INTERVAL_SECONDS must be a whole number");
    expect(agent.stderr()).not.toContain("NODE_KEY");
  });

  test("stops, naming CORE_BIN, when the core binary cannot be run", async () => {
    const agent = spawnCaptured("agent/main.ts", {
      ...withoutProbeVariables(),
      ...complete,
      AGENT_MODE: "probe",
      CORE_BIN: join(directory, "no-such-core"),
      AGENT_STATE: join(directory, "state.json"),
    });
    expect(await exitCodeOf(agent, 60_000)).toBe(1);
    expect(agent.stderr()).toContain(
      `kannt-agent: CORE_BIN (${join(directory, "no-such-core")}) cannot be run`,
    );
  });

  test("an unknown AGENT_MODE is refused, naming the two there are", async () => {
    const agent = spawnCaptured("agent/main.ts", { ...withoutProbeVariables(), AGENT_MODE: "watch" });
    expect(await exitCodeOf(agent, 60_000)).toBe(1);
    expect(agent.stderr()).toContain(
      'kannt-agent: AGENT_MODE must be node (the default) or probe (got "watch")',
    );
  });
});
