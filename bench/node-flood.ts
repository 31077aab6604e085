import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../bff/platform/database";
import { payingCustomer } from "./allowlist-http";
import { seedAccess } from "./allowlist-seed";
import { median, startProcess } from "./lib";

/**
 * DESIGN §8 and §10: a node key cannot slow customers. Customers' calls (`/api/profile` and
 * `/api/profile/payments`, a real customer's session, one call at a time) are timed on a quiet
 * server and while 4 senders flood `/api/nodes/events` with one node key (batches of 1,000
 * samples for seeded devices, each sent as soon as the last is answered: `node-flood-senders.ts`,
 * a process of its own). Quiet and flooded phases alternate, the one that goes first
 * alternating by round; each phase's p95 per call, then the medians over the rounds are
 * compared. Budget: flooded p95 within 2× of quiet, for each call.
 */
const rounds = Number(process.env.ROUNDS ?? 5);
const seconds = Number(process.env.SECONDS_PER_ROUND ?? 5);
const customers = Number(process.env.CUSTOMERS ?? 2_000);
const budget = 2;
const loadAverage = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
const loadBefore = loadAverage();

// Seeded customers with a device each: the senders' samples name their tags, so every
// accepted batch writes 1,000 rows, as a real node's would.
const directory = mkdtempSync(join(process.env.BENCH_DIRECTORY ?? tmpdir(), "kannt-flood-"));
const path = join(directory, "app.db");
const seeded = await seedAccess(path, customers, ["flooded"]);
const database = await openDatabase(path);
const tags = await database.all<{ node_tag: string }>("SELECT node_tag FROM devices ORDER BY id LIMIT 1000");
await database.close();
const tagsFile = join(directory, "tags.txt");
writeFileSync(tagsFile, tags.map((row) => row.node_tag).join("\n"));

const product = await startProcess("bench/servers/product.ts", { BENCH_DATABASE: path });
const origin = `http://127.0.0.1:${product.port}`;

/** What a process still prints until it ends (startProcess has read up to its READY line). */
async function restOf(stream: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stream.getReader();
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return text;
    text += new TextDecoder().decode(value);
  }
}

type Call = "/api/profile" | "/api/profile/payments";
const calls: Call[] = ["/api/profile", "/api/profile/payments"];
const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.95)] ?? 0;

try {
  const customer = await payingCustomer(origin, "flood-bench@example.com");
  const body = JSON.stringify({ uid: customer.uid, email: customer.email });
  /** One call at a time for `duration` ms; each call's times in ms. Anything but 200 fails the bench. */
  const timeCalls = async (duration: number) => {
    const times: Record<Call, number[]> = { "/api/profile": [], "/api/profile/payments": [] };
    const end = performance.now() + duration;
    for (let index = 0; performance.now() < end; index++) {
      const call = calls[index % calls.length] as Call;
      const started = performance.now();
      const response = await fetch(`${origin}${call}`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie: customer.cookie },
        body,
      });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${call} answered ${response.status} during the bench`);
      times[call].push(performance.now() - started);
    }
    return times;
  };
  const flooded = async (work: () => Promise<Record<Call, number[]>>) => {
    const senders = await startProcess("bench/node-flood-senders.ts", {
      KANNT_URL: origin,
      NODE_KEY: seeded.nodeKeys.get("flooded") ?? "",
      TAGS_FILE: tagsFile,
    });
    // The senders reach their pace (and spend the node's burst) before anything is timed.
    await Bun.sleep(1_500);
    const times = await work();
    senders.child.kill("SIGTERM");
    const output = await restOf(senders.child.stdout as ReadableStream<Uint8Array>);
    const statuses = JSON.parse(/STATUSES (.*)/.exec(output)?.[1] ?? "{}") as Record<string, number>;
    return { times, statuses };
  };

  await timeCalls(2_000); // warm-up: JIT, caches
  const quiet: Record<Call, number[]> = { "/api/profile": [], "/api/profile/payments": [] };
  const flood: Record<Call, number[]> = { "/api/profile": [], "/api/profile/payments": [] };
  const sent: Record<string, number> = {};
  for (let round = 0; round < rounds; round++) {
    const phases = round % 2 === 0 ? (["quiet", "flood"] as const) : (["flood", "quiet"] as const);
    for (const phase of phases) {
      if (phase === "quiet") {
        const times = await timeCalls(seconds * 1000);
        for (const call of calls) quiet[call].push(p95(times[call]));
      } else {
        const { times, statuses } = await flooded(() => timeCalls(seconds * 1000));
        for (const call of calls) flood[call].push(p95(times[call]));
        for (const [status, count] of Object.entries(statuses)) sent[status] = (sent[status] ?? 0) + count;
      }
    }
  }

  console.log(
    `rounds: ${rounds} × ${seconds} s per phase, ${customers} seeded customers; medians of each phase's p95`,
  );
  console.log(
    `load average before: ${loadBefore}, after: ${loadAverage()} (a machine shared with other work)`,
  );
  const batches = Object.values(sent).reduce((sum, count) => sum + count, 0);
  console.log(
    `flooding senders' batches by answer: ${JSON.stringify(sent)} (${batches} in ${rounds * (seconds + 1.5)} s of flooding)`,
  );
  let isOver = false;
  for (const call of calls) {
    const [calm, busy] = [median(quiet[call]), median(flood[call])];
    const ratio = busy / calm;
    isOver ||= ratio > budget;
    console.log(
      `${call}: p95 quiet ${calm.toFixed(2)} ms, flooded ${busy.toFixed(2)} ms: ${ratio.toFixed(2)}× (budget: at most ${budget}×); rounds quiet ${quiet[call].map((value) => value.toFixed(2)).join(" ")}, flooded ${flood[call].map((value) => value.toFixed(2)).join(" ")}`,
    );
  }
  if (isOver) process.exitCode = 1;
} finally {
  product.stop();
}
