import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, test } from "vitest";

/**
 * deploy/prometheus/kannt-alerts.yml read by Prometheus's own tool: `promtool check rules`
 * parses every rule, and `promtool test rules` runs kannt-alerts.test.yml, series that make
 * the VPN node rules fire and series that must not. Debian's `prometheus` package brings
 * promtool (.ci/run installs it when missing); without it these tests fail, never skip.
 */
const prometheusFolder = fileURLToPath(new URL("../../../deploy/prometheus/", import.meta.url));
const rulesFile = join(prometheusFolder, "kannt-alerts.yml");
const unitTestsFile = join(prometheusFolder, "kannt-alerts.test.yml");
const dashboardFile = fileURLToPath(new URL("../../../deploy/grafana/kannt-dashboard.json", import.meta.url));

const scratch = mkdtempSync(join(tmpdir(), "kannt-promtool-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function promtool(...args: string[]) {
  const path = Bun.which("promtool");
  if (!path)
    throw new Error(
      "promtool is not installed: the alert rules are checked by Prometheus's own tool. Install it with `apt-get install -y prometheus` (.ci/run does).",
    );
  const run = Bun.spawnSync([path, ...args], { stdout: "pipe", stderr: "pipe" });
  return { exitCode: run.exitCode, output: `${run.stdout.toString()}${run.stderr.toString()}` };
}

type Rule = { alert?: string; record?: string; expr: string };
type UnitTests = {
  tests: { name: string; alert_rule_test: { alertname: string; exp_alerts: unknown[] }[] }[];
};

const groups = () =>
  (Bun.YAML.parse(readFileSync(rulesFile, "utf8")) as { groups: { name: string; rules: Rule[] }[] }).groups;

const nodeRules = [
  "KanntNodeOffline",
  "KanntNodeCoreDown",
  "KanntNodeSyncLagging",
  "KanntNodeCredentialsMissing",
];

describe("the alert rules, by promtool", () => {
  test("promtool check rules accepts every rule", () => {
    const count = groups().flatMap((group) => group.rules).length;
    const check = promtool("check", "rules", rulesFile);
    expect(check.exitCode, check.output).toBe(0);
    expect(check.output).toContain(`SUCCESS: ${count} rules found`);
  });

  test("the VPN node rules are there: offline, core down, sync lag, credentials held below expected", () => {
    const nodes = groups().find((group) => group.name === "kannt-nodes");
    expect(nodes?.rules.map((rule) => rule.alert)).toEqual(nodeRules);
  });

  test("promtool test rules: each node rule fires on the series that should and stays quiet on the others", () => {
    const run = promtool("test", "rules", unitTestsFile);
    expect(run.exitCode, run.output).toBe(0);
    expect(run.output).toContain("SUCCESS");
    // Every node rule is tested both ways: a time it fires and a time it must not.
    const cases = (Bun.YAML.parse(readFileSync(unitTestsFile, "utf8")) as UnitTests).tests.flatMap(
      (unitTest) => unitTest.alert_rule_test,
    );
    for (const alert of nodeRules) {
      const own = cases.filter((entry) => entry.alertname === alert);
      expect(
        own.some((entry) => entry.exp_alerts.length > 0),
        `${alert} fires somewhere`,
      ).toBe(true);
      expect(
        own.some((entry) => entry.exp_alerts.length === 0),
        `${alert} stays quiet somewhere`,
      ).toBe(true);
    }
  });

  test("promtool test rules fails when a rule stops doing what its tests say", () => {
    // The unit tests can fail: the offline rule without its 2 minutes fires too early.
    const original = readFileSync(rulesFile, "utf8");
    const changed = original.replace(
      /(alert: KanntNodeOffline[\s\S]*?for: )2m/,
      (_, head: string) => `${head}0m`,
    );
    expect(changed).not.toBe(original);
    writeFileSync(join(scratch, "kannt-alerts.yml"), changed);
    writeFileSync(join(scratch, "kannt-alerts.test.yml"), readFileSync(unitTestsFile, "utf8"));
    const run = promtool("test", "rules", join(scratch, "kannt-alerts.test.yml"));
    expect(run.exitCode).not.toBe(0);
    expect(run.output).toContain("KanntNodeOffline");
  });

  test("every query of the Grafana dashboard is PromQL that promtool parses", () => {
    const dashboard = JSON.parse(readFileSync(dashboardFile, "utf8")) as {
      panels: { title: string; targets: { expr: string }[] }[];
    };
    const rules = dashboard.panels.flatMap((panel, index) =>
      panel.targets.map((target, at) => ({ record: `dashboard:panel_${index}_${at}`, expr: target.expr })),
    );
    const file = join(scratch, "dashboard-queries.yml");
    writeFileSync(file, JSON.stringify({ groups: [{ name: "dashboard", rules }] }));
    const check = promtool("check", "rules", file);
    expect(check.exitCode, check.output).toBe(0);
    expect(check.output).toContain(`SUCCESS: ${rules.length} rules found`);
  });
});
