import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { median, requireCommand, runWrk, startProcess } from "./lib";

/**
 * DESIGN §10: POST /api/profile with a valid session must reach at least 50% of the
 * requests/s of a bare Bun.serve hello-world measured in the same run. Baseline and
 * candidate alternate; medians are compared. Load comes from wrk (a C load generator,
 * faster than the servers it measures) on one thread, the server keeps the other core.
 */
requireCommand("wrk", "apt-get install -y wrk");
const rounds = Number(process.env.ROUNDS ?? 5);
const seconds = Number(process.env.SECONDS_PER_ROUND ?? 5);
const connections = Number(process.env.CONNECTIONS ?? 50);

const product = await startProcess("bench/servers/product.ts");
const baseline = await startProcess("bench/servers/hello.ts");
const ceiling = await startProcess("bench/servers/post-json.ts");
const elysiaCeiling = await startProcess("bench/servers/elysia-post.ts");
const floor = await startProcess("bench/servers/elysia-floor.ts");
const origin = `http://127.0.0.1:${product.port}`;

// A real customer with a real session, made through the demo provider and /api/register.
const token = (await (
  await fetch(`${origin}/api/dev/idp/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "bench@example.com" }),
  })
).json()) as { credential: string; uid: string; email: string };
const register = await fetch(`${origin}/api/register`, {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ ...token, providerId: "google.com", period: 30, tariff: 1 }),
});
const cookie = register.headers.getSetCookie()[0]?.split(";")[0];
if (!register.ok || !cookie) throw new Error(`could not sign the bench customer in: ${register.status}`);
await fetch(`${origin}/api/dev/fixtures/subscription`, {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ email: token.email, status: "ACTIVE", devices: 2 }),
});

const script = join(mkdtempSync(join(tmpdir(), "kannt-wrk-")), "profile.lua");
writeFileSync(
  script,
  `wrk.method = "POST"
wrk.body = ${JSON.stringify(JSON.stringify({ uid: token.uid, email: token.email }))}
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Cookie"] = ${JSON.stringify(cookie)}
`,
);

const check = await fetch(`${origin}/api/profile`, {
  method: "POST",
  headers: { "content-type": "application/json", cookie },
  body: JSON.stringify({ uid: token.uid, email: token.email }),
});
if (check.status !== 200) throw new Error(`profile answered ${check.status}`);

// Warm both up so JIT and caches do not favour whichever runs second.
runWrk(`http://127.0.0.1:${baseline.port}/`, 2, connections);
runWrk(`${origin}/api/profile`, 2, connections, script);

const baselineRuns = [];
const productRuns = [];
const ceilingRuns = [];
const elysiaRuns = [];
const floorRuns = [];
for (let round = 0; round < rounds; round++) {
  baselineRuns.push(runWrk(`http://127.0.0.1:${baseline.port}/`, seconds, connections));
  productRuns.push(runWrk(`${origin}/api/profile`, seconds, connections, script));
  ceilingRuns.push(runWrk(`http://127.0.0.1:${ceiling.port}/`, seconds, connections, script));
  elysiaRuns.push(runWrk(`http://127.0.0.1:${elysiaCeiling.port}/`, seconds, connections, script));
  floorRuns.push(runWrk(`http://127.0.0.1:${floor.port}/api/profile`, seconds, connections, script));
}
product.stop();
baseline.stop();
ceiling.stop();
elysiaCeiling.stop();
floor.stop();

const baselineRps = median(baselineRuns.map((run) => run.requestsPerSecond));
const productRps = median(productRuns.map((run) => run.requestsPerSecond));
const ratio = productRps / baselineRps;
const errors = productRuns.reduce((sum, run) => sum + run.errors, 0);
console.log(`rounds: ${rounds} × ${seconds}s, ${connections} connections, medians`);
console.log(
  `bare Bun.serve:   ${baselineRps.toFixed(0)} req/s, p99 ${median(baselineRuns.map((r) => r.p99Ms)).toFixed(2)} ms`,
);
console.log(
  `POST /api/profile: ${productRps.toFixed(0)} req/s, p99 ${median(productRuns.map((r) => r.p99Ms)).toFixed(2)} ms`,
);
const ceilingRps = median(ceilingRuns.map((run) => run.requestsPerSecond));
console.log(
  `bare JSON POST:    ${ceilingRps.toFixed(0)} req/s (${((ceilingRps / baselineRps) * 100).toFixed(1)}% of the baseline: the ceiling for any JSON POST route)`,
);
const elysiaRps = median(elysiaRuns.map((run) => run.requestsPerSecond));
console.log(
  `bare Elysia POST:  ${elysiaRps.toFixed(0)} req/s (${((elysiaRps / baselineRps) * 100).toFixed(1)}% of the baseline: the ceiling for a route in the BFF)`,
);
const floorRps = median(floorRuns.map((run) => run.requestsPerSecond));
console.log(
  `Elysia floor:      ${floorRps.toFixed(0)} req/s (${((floorRps / baselineRps) * 100).toFixed(1)}% of the baseline, ${((floorRps / elysiaRps) * 100).toFixed(1)}% of bare Elysia: headers, schemas and a session macro, no work)`,
);
const elysiaRatio = productRps / elysiaRps;
console.log(
  `ratio: ${(ratio * 100).toFixed(1)}% of the baseline (budget: at least 50%), ${(elysiaRatio * 100).toFixed(1)}% of bare Elysia (budget: at least 75%)${errors ? `, ${errors} non-2xx!` : ""}`,
);
if (ratio < 0.5 || elysiaRatio < 0.75 || errors > 0) process.exit(1);
