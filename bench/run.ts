/**
 * `npm run bench`: every benchmark in turn. Each compares against a baseline measured
 * in the same run where timing matters; see bench/README.md for the budgets.
 */
const benchmarks = [
  ["bun", "bench/js-size.ts"],
  ["bun", "bench/lighthouse.ts"],
  ["bun", "bench/profile-throughput.ts"],
  ["bun", "bench/renewals.ts"],
  ["bun", "bench/renewals.ts", "--latency"],
  ["bun", "bench/renewals-10k.ts"],
  ["bun", "bench/renewals-sbp.ts"],
  ["bun", "bench/renewals-postgres.ts"],
  ["bun", "bench/renewals-postgres.ts", "--latency"],
  ["bun", "bench/billing-simulation.ts"],
  ["bun", "bench/search.ts"],
  ["bun", "bench/allowlist.ts"],
  ["bun", "bench/node-flood.ts"],
  ["bun", "bench/probe-cost.ts"],
];

for (const command of benchmarks) {
  console.log(`\n$ ${command.join(" ")}`);
  const run = Bun.spawnSync(command, { stdout: "inherit", stderr: "inherit" });
  if (run.exitCode !== 0) process.exit(run.exitCode ?? 1);
}
