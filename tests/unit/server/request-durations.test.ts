import { Histogram, Registry } from "prom-client";
import { describe, expect, test } from "vitest";
import { createRequestDurations } from "../../../bff/platform/request-durations";

/** The same observations through prom-client's own Histogram, labelled and bucketed as before. */
function promClientText(observations: [string, string, number, number][]) {
  const registry = new Registry();
  const histogram = new Histogram({
    name: "http_request_duration_seconds",
    help: "Time to answer an HTTP request, by method, route pattern and status.",
    labelNames: ["method", "route", "status"] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  for (const [method, route, status, seconds] of observations)
    histogram.observe({ method, route, status }, seconds);
  return registry;
}

function ownText(observations: [string, string, number, number][]) {
  const registry = new Registry();
  const durations = createRequestDurations(registry);
  for (const [method, route, status, seconds] of observations)
    durations.observe(method, route, status, seconds);
  return registry;
}

// Bounds themselves, values between them, past the last bound, and several series.
const observations: [string, string, number, number][] = [
  ["POST", "/api/profile", 200, 0.00002],
  ["POST", "/api/profile", 200, 0.001],
  ["POST", "/api/profile", 200, 0.0011],
  ["POST", "/api/profile", 401, 0.003],
  ["GET", "/api/profile/payments/:id/receipt", 200, 0.7],
  ["GET", "unmatched", 404, 12],
  ["HEAD", "/api/health", 200, 10],
  ["POST", "/api/profile", 200, 0.26],
];

describe("http_request_duration_seconds, counted without prom-client's Histogram", () => {
  test("prints exactly what prom-client's Histogram printed for the same requests", async () => {
    expect(await ownText(observations).metrics()).toBe(await promClientText(observations).metrics());
  });

  test("reads the same as JSON, and a reset forgets every series as prom-client's did", async () => {
    const [own, theirs] = [ownText(observations), promClientText(observations)];
    expect(await own.getMetricsAsJSON()).toEqual(await theirs.getMetricsAsJSON());
    own.resetMetrics();
    theirs.resetMetrics();
    expect(await own.metrics()).toBe(await theirs.metrics());
    expect(await own.metrics()).not.toContain("_count");
  });

  test("an empty server prints the help and type alone, as before", async () => {
    expect(await ownText([]).metrics()).toBe(await promClientText([]).metrics());
  });
});
