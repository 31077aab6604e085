/**
 * Flooding senders for `node-flood.ts`: SENDERS loops (default 4) that post batches of 1,000
 * traffic samples to `/api/nodes/events` with one node key, each sending its next batch as
 * soon as the last is answered, whatever the answer (a broken or hostile agent: it does not
 * wait for Retry-After). Runs as its own process, so its work is not the measuring client's.
 * Prints the answers it got by status when it is stopped (SIGTERM).
 */
import { readFileSync } from "node:fs";

const origin = process.env.KANNT_URL ?? "";
const key = process.env.NODE_KEY ?? "";
const senders = Number(process.env.SENDERS ?? 4);
const tags = readFileSync(process.env.TAGS_FILE ?? "", "utf8")
  .split("\n")
  .filter(Boolean);
const body = JSON.stringify({
  periodMs: 10_000,
  traffic: tags.slice(0, 1000).map((tag) => ({ tag, upload: 1_000, download: 5_000 })),
  connections: [],
});
const statuses = new Map<number, number>();
let isStopping = false;

async function send(): Promise<void> {
  while (!isStopping) {
    try {
      const response = await fetch(`${origin}/api/nodes/events`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
        body,
      });
      await response.arrayBuffer();
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    } catch {
      statuses.set(0, (statuses.get(0) ?? 0) + 1);
    }
  }
}

process.on("SIGTERM", () => {
  isStopping = true;
  console.log(`STATUSES ${JSON.stringify(Object.fromEntries(statuses))}`);
  process.exit(0);
});
console.log(`READY 0 (${senders} senders, ${body.length} bytes a batch)`);
await Promise.all(Array.from({ length: senders }, send));
