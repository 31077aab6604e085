import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cpuSecondsOf, median, requireCommand, runWrk, startProcess, type WrkResult } from "./lib";

/**
 * DESIGN §10: POST /api/profile with a valid session, on the embedded SQLite default, must
 * reach at least 80% of the requests/s of the Elysia floor measured in the same run
 * (bench/servers/elysia-floor.ts: the framework with the security headers, the cabinet's
 * response schema and the session macro, answering a fixed body). The product and the floor
 * run back to back in every round, in alternating order; medians are compared. Bare
 * `Bun.serve` and a bare Elysia route are measured beside them for the record. Load comes
 * from wrk (a C load generator, faster than the servers it measures) on one thread, the
 * server keeps the other core.
 */
requireCommand("wrk", "apt-get install -y wrk");
const rounds = Number(process.env.ROUNDS ?? 5);
const seconds = Number(process.env.SECONDS_PER_ROUND ?? 5);
const connections = Number(process.env.CONNECTIONS ?? 50);
const budget = 0.8;
const loadAverage = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
const loadBefore = loadAverage();

const product = await startProcess("bench/servers/product.ts");
const floor = await startProcess("bench/servers/elysia-floor.ts");
const bareBun = await startProcess("bench/servers/hello.ts");
const bareElysia = await startProcess("bench/servers/elysia-post.ts");
const servers = [product, floor, bareBun, bareElysia];
const origin = `http://127.0.0.1:${product.port}`;
const floorUrl = `http://127.0.0.1:${floor.port}/api/profile`;

try {
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

  const body = JSON.stringify({ uid: token.uid, email: token.email });
  const script = join(mkdtempSync(join(tmpdir(), "kannt-wrk-")), "profile.lua");
  writeFileSync(
    script,
    `wrk.method = "POST"
wrk.body = ${JSON.stringify(body)}
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Cookie"] = ${JSON.stringify(cookie)}
`,
  );

  // The floor must answer what the product answers (status, headers, the cabinet's fields), or
  // the ratio compares different work.
  const ask = (url: string) =>
    fetch(url, { method: "POST", headers: { "content-type": "application/json", cookie }, body });
  const [ours, floors] = await Promise.all([ask(`${origin}/api/profile`), ask(floorUrl)]);
  const headerNames = (response: Response) =>
    [...response.headers.keys()].filter((name) => name !== "date" && name !== "content-length").sort();
  const fieldsOf = (value: unknown): string =>
    value !== null && typeof value === "object"
      ? `{${Object.entries(value)
          .map(([key, child]) => `${key}:${fieldsOf(child)}`)
          .join(",")}}`
      : typeof value;
  if (ours.status !== 200 || floors.status !== 200)
    throw new Error(`/api/profile answered ${ours.status}, the floor ${floors.status}`);
  if (headerNames(ours).join() !== headerNames(floors).join())
    throw new Error(`headers differ: product ${headerNames(ours)}, floor ${headerNames(floors)}`);
  const [ourFields, floorFields] = [fieldsOf(await ours.json()), fieldsOf(await floors.json())];
  if (ourFields !== floorFields) throw new Error(`the cabinet differs: ${ourFields} vs ${floorFields}`);

  const targets = {
    product: [`${origin}/api/profile`, script],
    floor: [floorUrl, script],
    bareBun: [`http://127.0.0.1:${bareBun.port}/`, undefined],
    bareElysia: [`http://127.0.0.1:${bareElysia.port}/`, script],
  } as const;
  type Name = keyof typeof targets;
  const processes: Partial<Record<Name, number>> = { product: product.child.pid, floor: floor.child.pid };
  // The server's own CPU per request besides: on a busy machine requests/s follow the CPU a
  // server is given, its CPU per request much less.
  const cpuPerRequest: Record<Name, number[]> = { product: [], floor: [], bareBun: [], bareElysia: [] };
  const measure = (name: Name, duration = seconds) => {
    const pid = processes[name];
    const before = pid === undefined ? 0 : cpuSecondsOf(pid);
    const run = runWrk(targets[name][0], duration, connections, targets[name][1]);
    if (pid !== undefined)
      cpuPerRequest[name].push(((cpuSecondsOf(pid) - before) * 1e6) / (run.requestsPerSecond * duration));
    return run;
  };
  // Warm every server up so JIT and caches do not favour whichever runs second.
  for (const name of Object.keys(targets) as Name[]) measure(name, 2);
  for (const name of Object.keys(cpuPerRequest) as Name[]) cpuPerRequest[name].length = 0;

  const runs: Record<Name, WrkResult[]> = { product: [], floor: [], bareBun: [], bareElysia: [] };
  const roundRatios: number[] = [];
  for (let round = 0; round < rounds; round++) {
    // Product and floor back to back, the one that goes first alternating.
    const pair = round % 2 === 0 ? (["product", "floor"] as const) : (["floor", "product"] as const);
    for (const name of pair) runs[name].push(measure(name));
    roundRatios.push(
      (runs.product.at(-1)?.requestsPerSecond ?? 0) / (runs.floor.at(-1)?.requestsPerSecond ?? Number.NaN),
    );
    runs.bareBun.push(measure("bareBun"));
    runs.bareElysia.push(measure("bareElysia"));
  }

  const rps = (name: Name) => median(runs[name].map((run) => run.requestsPerSecond));
  const p99 = (name: Name) => median(runs[name].map((run) => run.p99Ms)).toFixed(2);
  const errors = (name: Name) => runs[name].reduce((sum, run) => sum + run.errors, 0);
  const ratio = rps("product") / rps("floor");
  const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
  console.log(`rounds: ${rounds} × ${seconds}s, ${connections} connections, medians`);
  console.log(`load average before: ${loadBefore}, after: ${loadAverage()}`);
  console.log(`POST /api/profile: ${rps("product").toFixed(0)} req/s, p99 ${p99("product")} ms`);
  console.log(`Elysia floor:      ${rps("floor").toFixed(0)} req/s, p99 ${p99("floor")} ms`);
  console.log(
    `for the record, the floor is ${percent(rps("floor") / rps("bareBun"))} of bare Bun.serve (${rps("bareBun").toFixed(0)} req/s, GET hello-world) and ${percent(rps("floor") / rps("bareElysia"))} of bare Elysia (${rps("bareElysia").toFixed(0)} req/s, POST with a body schema)`,
  );
  const cpu = (name: Name) => median(cpuPerRequest[name]);
  console.log(
    `server CPU per request: product ${cpu("product").toFixed(1)} µs, floor ${cpu("floor").toFixed(1)} µs (floor/product ${percent(cpu("floor") / cpu("product"))})`,
  );
  const sorted = [...roundRatios].sort((a, b) => a - b);
  const failures = errors("product") + errors("floor");
  console.log(
    `ratio: ${percent(ratio)} of the floor (budget: at least ${percent(budget)}); rounds ${percent(sorted[0] ?? 0)}–${percent(sorted.at(-1) ?? 0)}${failures ? `, ${failures} non-2xx!` : ""}`,
  );
  if (ratio < budget || failures > 0) process.exitCode = 1;
} finally {
  for (const server of servers) server.stop();
}
