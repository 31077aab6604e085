import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { approvingCards } from "../bff/adapters/sandbox/cards";
import { seedPayingCustomers } from "../tests/helpers/seed-paying-customers";
import { startProcess } from "./lib";

/**
 * What the renewal benches share (DESIGN §10). The bank is a process of its own: a demo
 * instance on a SQLite file of its own that only banks (its scheduler off, its sandbox
 * notifying the shop, SANDBOX_NOTIFICATION_URL), so its CPU is not counted as the shop's
 * and its latency (SANDBOX_LATENCY_MS ± SANDBOX_JITTER_MS) is met over real HTTP. The shop
 * instances charge through it (CLOUDPAYMENTS_API_URL) as through a real gateway. Customers
 * pay their first payment at that bank with cards of their own, so the tokens a renewal
 * charges are ones the bank's own code saved.
 */

/** The gateway API secret the bank and the shops share: it signs the bank's notifications. */
const apiSecret = "bench-cloudpayments-api-secret-0123456789abcdef";

export type BankLatency = { latencyMs: number; jitterMs: number };

export const noLatency: BankLatency = { latencyMs: 0, jitterMs: 0 };

/** The latency mode's bank: SANDBOX_LATENCY_MS ± SANDBOX_JITTER_MS, 300 ± 50 ms unless set. */
export const slowBankLatency = (): BankLatency => ({
  latencyMs: Number(process.env.SANDBOX_LATENCY_MS || 300),
  jitterMs: Number(process.env.SANDBOX_JITTER_MS || 50),
});

/** Charges a shop instance keeps in flight (RENEWAL_CONCURRENCY, which the shops inherit). */
export const renewalConcurrency = () => Number(process.env.RENEWAL_CONCURRENCY || 32);

/** `directory` holds its data; `stop` ends the process and leaves the data to be read. */
export type Instance = { origin: string; pid: number; directory: string; stop(): Promise<void> };

async function freePort(): Promise<number> {
  const listener = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const { port } = listener;
  listener.stop(true);
  return port;
}

async function startInstance(environment: Record<string, string>): Promise<Instance> {
  const directory = mkdtempSync(join(tmpdir(), "kannt-renewal-bench-"));
  const { child, port } = await startProcess("tests/helpers/server-process.ts", {
    APP_MODE: "demo",
    DATABASE_PATH: join(directory, "app.db"),
    // Blank is unset: nothing from the shell running the bench decides which part is which.
    DATABASE_URL: "",
    CLOUDPAYMENTS_API_URL: "",
    SANDBOX_NOTIFICATION_URL: "",
    SANDBOX_LATENCY_MS: "",
    SANDBOX_JITTER_MS: "",
    CLOUDPAYMENTS_API_SECRET: apiSecret,
    BILLING_INTERVAL_SECONDS: "0",
    STATIC_DIR: join(directory, "no-site"),
    ...environment,
  });
  return {
    origin: `http://127.0.0.1:${port}`,
    pid: child.pid,
    directory,
    async stop() {
      child.kill("SIGTERM");
      await child.exited;
    },
  };
}

export type Rig = {
  bank: Instance;
  shops: Instance[];
  /** Where each shop keeps its data: its SQLite file, or the PostgreSQL database they share. */
  databaseUrl: string | undefined;
  shopDatabasePath: string;
  latency: BankLatency;
  stop(): Promise<void>;
};

/**
 * The bank, then `shops` instances charging through it: one on its own SQLite file, or
 * several on the PostgreSQL database at `databaseUrl`. The bank notifies the first shop,
 * as a gateway notifies the one address it was given (any instance may answer, DESIGN §15).
 */
export async function startRig(options: {
  shops: number;
  latency: BankLatency;
  databaseUrl?: string;
}): Promise<Rig> {
  const shopPort = await freePort();
  const bank = await startInstance({
    SANDBOX_NOTIFICATION_URL: `http://127.0.0.1:${shopPort}/api/payments/cloudpayments`,
    SANDBOX_LATENCY_MS: String(options.latency.latencyMs),
    SANDBOX_JITTER_MS: String(options.latency.jitterMs),
  });
  const shopDirectory = mkdtempSync(join(tmpdir(), "kannt-renewal-shop-"));
  const shopDatabasePath = join(shopDirectory, "app.db");
  const shops: Instance[] = [];
  try {
    for (let index = 0; index < options.shops; index++)
      shops.push(
        await startInstance({
          ...(index === 0 ? { PORT: String(shopPort), DATABASE_PATH: shopDatabasePath } : {}),
          DATABASE_URL: options.databaseUrl ?? "",
          CLOUDPAYMENTS_API_URL: `${bank.origin}/api/dev/sandbox/cloudpayments`,
        }),
      );
  } catch (error) {
    await stopAll([bank, ...shops], [shopDirectory]);
    throw error;
  }
  return {
    bank,
    shops,
    databaseUrl: options.databaseUrl,
    shopDatabasePath,
    latency: options.latency,
    stop: () => stopAll([bank, ...shops], [shopDirectory]),
  };
}

/** Ends the processes, then removes their data: 10,000 customers' files are not small. */
async function stopAll(instances: Instance[], directories: string[]) {
  await Promise.all(instances.map((instance) => instance.stop()));
  for (const directory of [...directories, ...instances.map((instance) => instance.directory)])
    rmSync(directory, { recursive: true, force: true });
}

/** A POST of JSON to a demo instance, answering its JSON; throws on a status other than 2xx. */
export const post = async (url: string, body?: unknown) => {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, number>;
};

/**
 * `count` customers who paid a 1-day trial at the bank through the first shop, each with a
 * card of its own (every approving test number: up to 13,200 cards), then made due (makeDue).
 */
export async function seedDueCustomers(rig: Rig, count: number): Promise<string[]> {
  const [shop] = rig.shops;
  if (!shop) throw new Error("no shop");
  // A slow bank answers each order's registration late: more customers at once keep it busy.
  const inFlight = seedingInFlight(rig);
  const accounts = await seedPayingCustomers(shop.origin, count, approvingCards, "payer", {
    bankOrigin: rig.bank.origin,
    inFlight,
  });
  await makeDue(rig);
  return accounts;
}

/** Customers seeded at the bank at once: more when it answers slowly, as it answers each late. */
export const seedingInFlight = (rig: Rig) => (rig.latency.latencyMs > 0 ? 100 : 25);

/**
 * Makes every seeded customer due: the pre-charge notices go out first, 24 hours or more
 * before the charges (DESIGN §13(a)), then every clock (the shops' shared one or the shop's,
 * and the bank's) moves 1.5 days on.
 */
export async function makeDue(rig: Rig): Promise<void> {
  const [shop] = rig.shops;
  if (!shop) throw new Error("no shop");
  await post(`${shop.origin}/api/dev/billing/run`);
  await post(`${shop.origin}/api/dev/clock`, { advanceDays: 1.5 });
  // The other instances read the shared clock twice a second; this has them read it now.
  for (const other of rig.shops.slice(1)) await post(`${other.origin}/api/dev/clock`, { advanceDays: 0 });
  await post(`${rig.bank.origin}/api/dev/clock`, { advanceDays: 1.5 });
}
