import { readFileSync } from "node:fs";
import { openDatabase } from "../bff/platform/database";
import { cpuSecondsOf, postgresClusterCpuSeconds } from "./lib";
import { type BankLatency, post, type Rig, seedDueCustomers, startRig } from "./renewal-rig";

/**
 * A renewal bench's round on the rig (renewal-rig.ts): every shop's pass timed, the CPU of
 * each part measured, and every customer checked charged exactly once, at the bank and in
 * our payments.
 */

export type PassResult = {
  completed: number;
  seconds: number;
  passes: Record<string, number>[];
  /** CPU seconds over the pass: each shop instance, PostgreSQL (0 on SQLite), the bank. */
  cpu: { shops: number[]; postgres: number; bank: number };
  isPostgres: boolean;
};

/** Every shop's renewal pass at once, timed until all have answered, with the CPU each part used. */
export async function timedPasses(rig: Rig): Promise<PassResult> {
  const port = rig.databaseUrl ? Number(new URL(rig.databaseUrl).port) : undefined;
  const postgresCpu = () => (port ? postgresClusterCpuSeconds(port) : 0);
  const cpuBefore = {
    shops: rig.shops.map((shop) => cpuSecondsOf(shop.pid)),
    postgres: postgresCpu(),
    bank: cpuSecondsOf(rig.bank.pid),
  };
  const started = performance.now();
  const passes = await Promise.all(rig.shops.map((shop) => post(`${shop.origin}/api/dev/billing/run`)));
  const seconds = (performance.now() - started) / 1000;
  const cpu = {
    shops: rig.shops.map((shop, index) => cpuSecondsOf(shop.pid) - (cpuBefore.shops[index] ?? 0)),
    postgres: postgresCpu() - cpuBefore.postgres,
    bank: cpuSecondsOf(rig.bank.pid) - cpuBefore.bank,
  };
  const completed = passes.reduce((sum, pass) => sum + (pass.completed ?? 0), 0);
  return { completed, seconds, passes, cpu, isPostgres: rig.databaseUrl !== undefined };
}

/** Milliseconds of CPU per renewal: the shop instances and PostgreSQL, the bank apart. */
export const shopCpuMsPerRenewal = (result: PassResult) =>
  ((result.cpu.shops.reduce((sum, seconds) => sum + seconds, 0) + result.cpu.postgres) * 1000) /
  Math.max(1, result.completed);

export function describeCpu(result: PassResult): string {
  const ms = (seconds: number) => ((seconds * 1000) / Math.max(1, result.completed)).toFixed(2);
  const shops = result.cpu.shops.map((seconds, index) =>
    result.cpu.shops.length > 1
      ? `instance ${"AB"[index] ?? index + 1} ${ms(seconds)}`
      : `shop ${ms(seconds)}`,
  );
  const postgres = result.isPostgres ? [`PostgreSQL ${ms(result.cpu.postgres)}`] : [];
  return `CPU per renewal ${shopCpuMsPerRenewal(result).toFixed(2)} ms (${[...shops, ...postgres].join(", ")}; the bank apart: ${ms(result.cpu.bank)})`;
}

type LedgerEntry = {
  transactionId: string;
  invoiceId: string;
  accountId: string;
  amount: number;
  status: string;
};
type OurRenewal = {
  account_id: string;
  invoice_id: string;
  transaction_id: string | null;
  amount: number;
  status: string;
};

/**
 * Every customer charged exactly once for the renewal, as the bank's ledger says and as our
 * payments say, the two agreeing on the transaction and the amount. Our payments are read
 * from the shop's database once the shops have stopped (a SQLite file is held by its
 * server). Answers the problems found, at most `limit` of them spelled out.
 */
export async function chargedExactlyOnce(rig: Rig, accounts: string[], limit = 10): Promise<string[]> {
  const ledger = (await (await fetch(`${rig.bank.origin}/api/dev/sandbox/ledger`)).json()) as LedgerEntry[];
  await Promise.all(rig.shops.map((shop) => shop.stop()));
  const database = await openDatabase({ databaseUrl: rig.databaseUrl, databasePath: rig.shopDatabasePath });
  const ours = await database.all<OurRenewal>(
    "SELECT account_id, invoice_id, transaction_id, amount, status FROM payments WHERE kind = 'renewal'",
  );
  await database.close();
  const atBank = new Map<string, LedgerEntry[]>();
  for (const entry of ledger)
    if (entry.invoiceId.startsWith("renewal-"))
      atBank.set(entry.accountId, [...(atBank.get(entry.accountId) ?? []), entry]);
  const inOurs = new Map<string, OurRenewal[]>();
  for (const payment of ours)
    inOurs.set(payment.account_id, [...(inOurs.get(payment.account_id) ?? []), payment]);
  const problems: string[] = [];
  for (const account of accounts) {
    const bank = atBank.get(account) ?? [];
    const our = inOurs.get(account) ?? [];
    const [charge] = bank;
    const [payment] = our;
    if (bank.length !== 1 || charge?.status !== "Completed")
      problems.push(
        `${account}: ${bank.length} renewal transactions at the bank (${bank.map((entry) => entry.status).join(", ")})`,
      );
    else if (our.length !== 1 || payment?.status !== "completed")
      problems.push(
        `${account}: ${our.length} renewal payments of ours (${our.map((row) => row.status).join(", ")})`,
      );
    else if (
      payment.transaction_id !== charge.transactionId ||
      payment.invoice_id !== charge.invoiceId ||
      payment.amount !== Math.round(charge.amount * 100)
    )
      problems.push(
        `${account}: ours ${payment.invoice_id} ${payment.transaction_id} ${payment.amount}, the bank's ${charge.invoiceId} ${charge.transactionId} ${charge.amount}`,
      );
  }
  const seeded = new Set(accounts);
  const extra = [...atBank.keys()].filter((account) => !seeded.has(account));
  if (extra.length > 0) problems.push(`${extra.length} accounts charged that were not seeded`);
  if (problems.length > limit) return [...problems.slice(0, limit), `… ${problems.length - limit} more`];
  return problems;
}

/** The load average (1, 5, 15 minutes), printed beside every figure: the machine is shared. */
export const loadAverage = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

/**
 * `rounds` rounds, each on a fresh bank and fresh shops (and `databaseUrl(round)`, a fresh
 * PostgreSQL database, when given): seed `customers` due customers, time every shop's pass,
 * check every customer was charged exactly once. Prints each round; throws on a wrong charge.
 */
export async function renewalRounds(options: {
  rounds: number;
  customers: number;
  shops: number;
  latency: BankLatency;
  databaseUrl?: (round: number) => Promise<string>;
}): Promise<PassResult[]> {
  const results: PassResult[] = [];
  for (let round = 0; round < options.rounds; round++) {
    const databaseUrl = await options.databaseUrl?.(round);
    const rig = await startRig({ shops: options.shops, latency: options.latency, databaseUrl });
    try {
      const seedingStarted = performance.now();
      const accounts = await seedDueCustomers(rig, options.customers);
      const seeding = (performance.now() - seedingStarted) / 1000;
      const result = await timedPasses(rig);
      const problems = await chargedExactlyOnce(rig, accounts);
      if (result.completed !== options.customers || problems.length > 0)
        throw new Error(
          `expected ${options.customers} renewals, each customer charged once; passes ${JSON.stringify(result.passes)}:\n${problems.join("\n")}`,
        );
      results.push(result);
      console.log(
        `round ${round + 1}: ${result.completed} renewals (${result.passes.map((pass) => pass.completed).join(" + ")}) in ${result.seconds.toFixed(2)} s = ${(result.completed / result.seconds).toFixed(0)}/s; ${describeCpu(result)}; each charged once at the bank and in our payments; load ${loadAverage()} (seeded in ${seeding.toFixed(0)} s)`,
      );
    } finally {
      await rig.stop();
    }
  }
  return results;
}
