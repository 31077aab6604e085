import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { registerEntryMetrics } from "../../../bff/modules/access/entries/entry-metrics";
import { registerNodeMetrics } from "../../../bff/modules/access/nodes/panel-nodes-metrics";
import { systemClock } from "../../../bff/platform/clock";
import { openSqlite } from "../../../bff/platform/database";
import { createMetrics } from "../../../bff/platform/metrics";

/**
 * The examples under deploy/ are read by people and by Prometheus, Grafana, systemd and
 * Caddy; these checks keep them in step with the code (a renamed metric would leave a
 * dashboard panel or an alert silently empty).
 */
const read = (path: string) => readFileSync(new URL(`../../../deploy/${path}`, import.meta.url), "utf8");

const freshDatabase = openSqlite(":memory:");
const freshMetrics = createMetrics(freshDatabase);
registerNodeMetrics(freshMetrics.registry, freshDatabase, systemClock);
registerEntryMetrics(freshMetrics.registry, freshDatabase);

/**
 * Per-node figures of the agents' reports that the node rules and panels read, named here
 * until the server exports them beside kannt_node_sync_lag_seconds: 1 when the node's agent
 * reported within 30 s, 1 when its core is up, and the credentials its core holds.
 */
const nodeSeriesOnTheWay = ["kannt_node_up", "kannt_node_core_up", "kannt_node_credentials_held"];

const series = (() => {
  const names = new Set<string>(nodeSeriesOnTheWay);
  for (const metric of freshMetrics.registry.getMetricsAsArray()) {
    names.add(metric.name);
    if (String(metric.type) === "histogram")
      for (const suffix of ["_bucket", "_count", "_sum"]) names.add(`${metric.name}${suffix}`);
  }
  return names;
})();

/** The service's own series an expression names (process_* and `up` come from elsewhere). */
const ownSeries = (expression: string) =>
  expression.match(/\b(?:kannt_\w+|http_request_duration_\w+)/g) ?? [];

const alertRules = () =>
  (
    Bun.YAML.parse(read("prometheus/kannt-alerts.yml")) as {
      groups: { rules: { alert: string; expr: string; annotations: { summary: string } }[] }[];
    }
  ).groups.flatMap((group) => group.rules);

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
    const all = alertRules();
    for (const wanted of ["KanntRenewalDeclinesRising", "KanntOutboxStuck", "KanntSchedulerLate"])
      expect(all.map((rule) => rule.alert)).toContain(wanted);
    for (const rule of all) {
      expect(rule.annotations.summary, rule.alert).toBeTruthy();
      for (const name of ownSeries(rule.expr)) expect(series, `${rule.alert}: ${name}`).toContain(name);
    }
  });

  test("every outcome an alert rule selects is exported from the start, so the rule can fire after a restart", async () => {
    // A series prom-client has not written yet is no series: a rule on it stays quiet.
    for (const rule of alertRules()) {
      for (const [, name, matchers] of rule.expr.matchAll(/\b(kannt_\w+)\{([^}]*)\}/g)) {
        const metric = freshMetrics.registry.getSingleMetric(name ?? "");
        expect(metric, `${rule.alert}: ${name}`).toBeDefined();
        const exported = (await metric?.get())?.values.map((value) => value.labels) ?? [];
        for (const [, label, operator, pattern] of (matchers ?? "").matchAll(/(\w+)\s*(=~|=)\s*"([^"]*)"/g)) {
          // Only exact values and alternatives of plain words are checked; nothing else is used.
          const values = operator === "=" ? [pattern] : (pattern ?? "").split("|");
          for (const value of values)
            expect(
              exported.some((labels) => labels[label ?? ""] === value),
              `${rule.alert}: ${name}{${label}="${value}"}`,
            ).toBe(true);
        }
      }
    }
  });

  test("a rule that fires when nothing happened also fires when the series is missing", () => {
    // `sum(...) == 0` over no series is an empty vector, not 0. A figure taken per node
    // (`by (node)`, `by (entry, probe)`, `by (provider)`) is there exactly for the nodes,
    // the probes' verdicts or the payment providers that exist (each instance exports every
    // provider from its start): none missing means none to alert on.
    for (const rule of alertRules())
      for (const comparison of rule.expr.matchAll(/\)\s*==\s*0\b/g)) {
        const before = rule.expr.slice(0, comparison.index);
        if (/\bby \((node|entry, probe|provider)\) \(\w+$/.test(before)) continue;
        expect(before, rule.alert).toMatch(/or vector\(0\)$/);
      }
  });

  test.each(["kannt.service", "kannt@.service"])(
    "systemd's %s runs the server itself on loopback and gives it its 15 s to stop",
    (name) => {
      const unit = read(`systemd/${name}`);
      const execStart = unit.match(/^ExecStart=(.*)$/m)?.[1] ?? "";
      // npm would receive SIGTERM instead of the server (DESIGN §16).
      expect(execStart).not.toMatch(/\bnpm\b/);
      expect(execStart).toContain("scripts/start.ts");
      expect(Number(unit.match(/^TimeoutStopSec=(\d+)$/m)?.[1])).toBeGreaterThan(15);
      // The proxy beside it is the only way in (HTTPS, /metrics closed).
      expect(unit).toMatch(/^Environment=HOST=127\.0\.0\.1$/m);
    },
  );

  test("the instances of kannt@.service each listen on their own port and share PostgreSQL", () => {
    const unit = read("systemd/kannt@.service");
    // On the command line, so a PORT in the shared env file cannot put both on one port.
    expect(unit.match(/^ExecStart=(.*)$/m)?.[1]).toMatch(/\bPORT=%i\b/);
    // A second instance on the SQLite file would find it held by the first.
    expect(unit.match(/^ExecStartPre=(.*)$/m)?.[1]).toContain('test -n "$$DATABASE_URL"');
    // What the proxy and the scraper are pointed at are instances of it.
    expect(unit).toContain("kannt@3000 kannt@3001");
    expect(read("caddy/Caddyfile")).toContain("reverse_proxy 127.0.0.1:3000 127.0.0.1:3001");
    expect(read("prometheus/prometheus.yml")).toContain('["127.0.0.1:3000", "127.0.0.1:3001"]');
  });

  test("the database is backed up daily", () => {
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
