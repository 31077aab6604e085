import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { openSqlite } from "../../bff/platform/database";
import { createMetrics } from "../../bff/platform/metrics";

/**
 * The examples under deploy/ are read by people and by Prometheus, Grafana, systemd and
 * Caddy; these checks keep them in step with the code (a renamed metric would leave a
 * dashboard panel or an alert silently empty).
 */
const read = (path: string) => readFileSync(new URL(`../../deploy/${path}`, import.meta.url), "utf8");

const series = (() => {
  const names = new Set<string>();
  for (const metric of createMetrics(openSqlite(":memory:")).registry.getMetricsAsArray()) {
    names.add(metric.name);
    if (String(metric.type) === "histogram")
      for (const suffix of ["_bucket", "_count", "_sum"]) names.add(`${metric.name}${suffix}`);
  }
  return names;
})();

/** The service's own series an expression names (process_* and `up` come from elsewhere). */
const ownSeries = (expression: string) =>
  expression.match(/\b(?:kannt_\w+|http_request_duration_\w+)/g) ?? [];

describe("deploy/", () => {
  test("every dashboard panel queries series the server exports", () => {
    const dashboard = JSON.parse(read("grafana/kannt-dashboard.json")) as {
      panels: { title: string; targets: { expr: string }[] }[];
    };
    expect(dashboard.panels.length).toBeGreaterThan(5);
    for (const panel of dashboard.panels) {
      expect(panel.targets.length, panel.title).toBeGreaterThan(0);
      for (const { expr } of panel.targets)
        for (const name of ownSeries(expr)) expect(series, `${panel.title}: ${name}`).toContain(name);
    }
  });

  test("every alert rule is well formed and names series the server exports", () => {
    const rules = Bun.YAML.parse(read("prometheus/kannt-alerts.yml")) as {
      groups: { rules: { alert: string; expr: string; annotations: { summary: string } }[] }[];
    };
    const all = rules.groups.flatMap((group) => group.rules);
    for (const wanted of ["KanntRenewalDeclinesRising", "KanntOutboxStuck", "KanntSchedulerLate"])
      expect(all.map((rule) => rule.alert)).toContain(wanted);
    for (const rule of all) {
      expect(rule.annotations.summary, rule.alert).toBeTruthy();
      for (const name of ownSeries(rule.expr)) expect(series, `${rule.alert}: ${name}`).toContain(name);
    }
  });

  test("systemd runs the server itself, gives it its 15 s to stop, and backs up daily", () => {
    const unit = read("systemd/kannt.service");
    const execStart = unit.match(/^ExecStart=(.*)$/m)?.[1] ?? "";
    // npm would receive SIGTERM instead of the server (DESIGN §16).
    expect(execStart).not.toMatch(/\bnpm\b/);
    expect(execStart).toContain("scripts/start.ts");
    expect(Number(unit.match(/^TimeoutStopSec=(\d+)$/m)?.[1])).toBeGreaterThan(15);
    expect(read("systemd/kannt-backup.service")).toContain("scripts/backup.ts");
    expect(read("systemd/kannt-backup.timer")).toMatch(/^OnCalendar=/m);
  });

  test("the proxy keeps /metrics private and the server told whom to trust", () => {
    const caddyfile = read("caddy/Caddyfile");
    expect(caddyfile).toMatch(/respond \/metrics 404/);
    expect(caddyfile).toContain("TRUSTED_PROXIES=");
    expect(caddyfile).toContain("health_uri /api/health");
  });
});
