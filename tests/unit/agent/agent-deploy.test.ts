import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";

const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), "utf8");

describe("the node agent's packaging", () => {
  test("systemd runs it as root beside the core, always restarted, configured from /etc/kannt/agent.env", () => {
    const unit = read("deploy/kannt-agent.service");
    expect(unit).toMatch(/^User=root$/m);
    expect(unit).toMatch(/^Restart=always$/m);
    expect(unit).toMatch(/^EnvironmentFile=\/etc\/kannt\/agent\.env$/m);
    expect(unit).toMatch(/^WorkingDirectory=\/opt\/kannt\/agent$/m);
    expect(unit).toMatch(/^ExecStart=\/usr\/bin\/node main\.ts$/m);
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

  test("the agent's package stands alone: it imports its own files, Node's and the packages it declares, nothing of the product's", () => {
    const declared = Object.keys(
      (JSON.parse(read("agent/package.json")) as { dependencies: Record<string, string> }).dependencies,
    );
    expect(declared.sort()).toEqual(["@grpc/grpc-js", "@sinclair/typebox"]);
    const files = readdirSync(new URL("../../../agent/", import.meta.url), {
      recursive: true,
      encoding: "utf8",
    }).filter((name) => name.endsWith(".ts") && !name.includes("node_modules"));
    expect(files.length).toBeGreaterThan(10);
    for (const name of files) {
      const source = read(`agent/${name}`);
      for (const [, specifier = ""] of source.matchAll(/(?:from|import\()\s*"([^"]+)"/g)) {
        if (specifier.startsWith(".")) {
          // Inside the package, and named by its file: Node resolves nothing else.
          expect(specifier, `${name}: ${specifier}`).toMatch(/\.ts$/);
          expect(
            new URL(specifier, new URL(`../../../agent/${name}`, import.meta.url)).pathname,
            name,
          ).toContain("/agent/");
        } else if (!specifier.startsWith("node:"))
          expect(
            declared.some((dependency) => specifier === dependency || specifier.startsWith(`${dependency}/`)),
            `${name} imports ${specifier}, which agent/package.json does not declare`,
          ).toBe(true);
      }
    }
  });

  test("the product's node routes and the agent check one contract: agent/contract/node-api.ts", () => {
    const routes = read("bff/modules/access/nodes/node-api.ts");
    expect(routes).toMatch(/from "(\.\.\/)+agent\/contract\/node-api"/);
    expect(read("agent/product-api.ts")).toContain('from "./contract/node-api.ts"');
  });
});
