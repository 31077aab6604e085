import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";

const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), "utf8");

describe("the node agent's packaging", () => {
  test("systemd runs it as root beside the core, always restarted, configured from /etc/kannt/agent.env", () => {
    const unit = read("deploy/kannt-agent.service");
    expect(unit).toMatch(/^User=root$/m);
    expect(unit).toMatch(/^Restart=always$/m);
    expect(unit).toMatch(/^EnvironmentFile=\/etc\/kannt\/agent\.env$/m);
    expect(unit).toMatch(/^ExecStart=\S*bun agent\/main\.ts$/m);
    expect(unit).toMatch(/^StateDirectory=kannt-agent$/m);
    // Without a saved list the core starts over, so no user the agent cannot know stays on it.
    expect(unit).toMatch(
      /^ExecStartPre=-\/bin\/sh -c 'test -s "\$\$\{AGENT_STATE\}" \|\| systemctl try-restart /m,
    );
    for (const name of [
      "KANNT_URL",
      "NODE_KEY",
      "NODE_HOST",
      "CORE",
      "CORE_API",
      "CORE_CONFIG",
      "CORE_ACCESS_LOG",
      "AGENT_STATE",
    ])
      expect(unit).toContain(`#   ${name}=`);
    expect(unit).toContain("AGENT_STATE=/var/lib/kannt-agent/");
  });

  test("`npm run agent` starts the same program", () => {
    expect((JSON.parse(read("package.json")) as { scripts: Record<string, string> }).scripts.agent).toBe(
      "bun agent/main.ts",
    );
  });

  test("the agent shares only the node API's wire types with the server, as type imports", () => {
    const agentFiles = readdirSync(new URL("../../../agent/", import.meta.url)).filter((name) =>
      name.endsWith(".ts"),
    );
    expect(agentFiles.length).toBeGreaterThan(10);
    for (const name of agentFiles) {
      const source = read(`agent/${name}`);
      for (const [statement] of source.matchAll(/^import[^;]*from "[^"]*";$/gms)) {
        if (!/from "\.\.\//.test(statement)) continue;
        expect(statement, name).toMatch(
          /^import type \{[^}]*\} from "\.\.\/bff\/modules\/access\/nodes\/node-wire";$/s,
        );
      }
    }
  });
});
