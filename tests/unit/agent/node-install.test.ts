import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, test } from "vitest";
import { astroCommand } from "../../../scripts/site-build";

/**
 * Where Bun comes from on a machine set up by the guide: `npm ci --omit=dev` in /opt/kannt
 * brings it (the version package-lock.json pins) as node_modules/.bin/bun, and every unit
 * under deploy/ runs that one by its full path. Nothing needs `bun` on PATH: not systemd, and
 * not the first start's site build.
 */
const root = fileURLToPath(new URL("../../../", import.meta.url));
const read = (path: string) => readFileSync(join(root, path), "utf8");
const projectBun = "/opt/kannt/node_modules/.bin/bun";

const scratch = mkdtempSync(join(tmpdir(), "kannt-node-install-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const units = [
  "deploy/systemd/kannt.service",
  "deploy/systemd/kannt@.service",
  "deploy/systemd/kannt-backup.service",
];

describe("the agent's own package on a node", () => {
  test("`npm ci --omit=dev` in agent/ brings the agent's gRPC client and TypeBox, and none of the product's packages", () => {
    copyFileSync(join(root, "agent/package.json"), join(scratch, "package.json"));
    copyFileSync(join(root, "agent/package-lock.json"), join(scratch, "package-lock.json"));
    const run = Bun.spawnSync(
      [
        "npm",
        "ci",
        "--omit=dev",
        "--dry-run",
        "--prefer-offline",
        "--ignore-scripts",
        "--no-audit",
        "--no-fund",
      ],
      { cwd: scratch, stdout: "pipe", stderr: "pipe" },
    );
    const added = run.stdout.toString();
    expect(run.exitCode, run.stderr.toString()).toBe(0);
    expect(added).toMatch(/^add @grpc\/grpc-js /m);
    expect(added).toMatch(/^add @sinclair\/typebox /m);
    for (const productPackage of ["elysia", "astro", "react", "bun", "postgres", "nodemailer"])
      expect(added).not.toMatch(new RegExp(`^add ${productPackage} `, "m"));
    expect(added.split("\n").filter((line) => line.startsWith("add ")).length).toBeLessThan(50);
  });
});

describe("Bun on the product's machine", () => {
  test("`npm ci --omit=dev`, the guide's install step, brings Bun", () => {
    // npm's own answer from the lockfile, offline: what an install without dev packages adds.
    copyFileSync(join(root, "package.json"), join(scratch, "package.json"));
    copyFileSync(join(root, "package-lock.json"), join(scratch, "package-lock.json"));
    const run = Bun.spawnSync(
      ["npm", "ci", "--omit=dev", "--dry-run", "--offline", "--ignore-scripts", "--no-audit", "--no-fund"],
      { cwd: scratch, stdout: "pipe", stderr: "pipe" },
    );
    const added = run.stdout.toString();
    expect(run.exitCode, run.stderr.toString()).toBe(0);
    const version = (
      JSON.parse(read("package-lock.json")) as { packages: Record<string, { version: string }> }
    ).packages["node_modules/bun"]?.version;
    expect(added).toMatch(new RegExp(`^add bun ${version}$`, "m"));
    // The binary itself, for this machine's platform.
    expect(added).toMatch(
      new RegExp(`^add @oven/bun-linux-${process.arch === "arm64" ? "aarch64" : "x64"} ${version}$`, "m"),
    );
  });

  test.each(units)("%s runs the project's own Bun from /opt/kannt", (unit) => {
    const text = read(unit);
    expect(text).toMatch(/^WorkingDirectory=\/opt\/kannt$/m);
    const execStart = text.match(/^ExecStart=(.*)$/m)?.[1] ?? "";
    const program = execStart.split(/\s+/).find((word) => /(^|\/)bun$/.test(word));
    expect(program, execStart).toBe(projectBun);
    // Nowhere a Bun that the install step does not put there.
    expect(text).not.toMatch(/\/usr\/(local\/)?bin\/bun\b/);
  });

  test("the agent's unit says how it is installed: npm ci --omit=dev in /opt/kannt/agent, on Node 22", () => {
    const unit = read("deploy/kannt-agent.service");
    expect(unit).toContain("`npm ci --omit=dev` in /opt/kannt/agent");
    expect(unit).toContain("Node 22");
  });

  test("the first start's site build runs with no `bun` on PATH, as under systemd", () => {
    // The same Bun that runs start.ts runs Astro; asked for its version here, not a build.
    const run = Bun.spawnSync(astroCommand("--version"), {
      cwd: root,
      env: { PATH: "/usr/bin:/bin", HOME: process.env.HOME ?? "/root" },
      stdout: "pipe",
      stderr: "pipe",
    });
    expect(run.exitCode, run.stderr.toString()).toBe(0);
    expect(run.stdout.toString()).toMatch(/astro\s+v\d+\.\d+\.\d+/);
    expect(read("scripts/start.ts")).toContain('Bun.spawnSync(astroCommand("build")');
  });
});
