import { closeSync, mkdtempSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type CalendarInstant, calendarInstants } from "./calendar-instants";

/**
 * `npm run test:calendar` (`bun scripts/test-calendar.ts [--project sqlite|postgres]
 * [--start <ISO instant>]… [-- <vitest arguments>]`): runs the unit and API tests once per
 * instant of calendarInstants (month ends, New Year at UTC, Moscow and Almaty midnight)
 * with the test clock started there, and once on the wall clock, one run after another,
 * then prints what failed where. Each run's output is kept in a folder under the system's
 * temporary one, named at the start (not test-results/, which a browser test run empties).
 * `--start` (repeatable) runs only the instants given; arguments after `--` go to Vitest
 * (file names, `-t`). Too long for `npm test`: about as long as that many runs of the suite.
 */
const root = fileURLToPath(new URL("..", import.meta.url));

type Options = { project: string; instants: CalendarInstant[]; vitestArguments: string[] };

function parseArguments(args: string[]): Options {
  let project = "sqlite";
  const starts: string[] = [];
  const separator = args.indexOf("--");
  const own = separator === -1 ? args : args.slice(0, separator);
  const vitestArguments = separator === -1 ? [] : args.slice(separator + 1);
  for (let index = 0; index < own.length; index++) {
    const name = own[index];
    const value = own[index + 1];
    if ((name === "--project" || name === "--start") && value === undefined) fail(`${name} needs a value.`);
    if (name === "--project" && value !== undefined) {
      if (value !== "sqlite" && value !== "postgres")
        fail(`--project is sqlite or postgres, not "${value}".`);
      project = value;
      index++;
    } else if (name === "--start" && value !== undefined) {
      if (Number.isNaN(Date.parse(value))) fail(`--start takes an ISO 8601 instant, not "${value}".`);
      starts.push(value);
      index++;
    } else fail(`unknown argument "${name}"; usage: ${usage}`);
  }
  const instants = starts.length
    ? starts.map((start) => ({ label: start, start }))
    : calendarInstants(Date.now());
  return { project, instants, vitestArguments };
}

const usage =
  "bun scripts/test-calendar.ts [--project sqlite|postgres] [--start <ISO instant>]… [-- <vitest arguments>]";

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

type JsonReport = {
  numTotalTests: number;
  numFailedTests: number;
  numPassedTests: number;
  testResults: {
    name: string;
    status: string;
    message?: string;
    assertionResults: { fullName: string; status: string }[];
  }[];
};

type RunResult = {
  instant: CalendarInstant;
  exitCode: number;
  seconds: number;
  passed: number;
  failed: number;
  failures: string[];
  log: string;
};

async function runOnce(
  options: Options,
  instant: CalendarInstant,
  outputDirectory: string,
): Promise<RunResult> {
  const name = (instant.start ?? "wall-clock").replaceAll(":", "");
  const log = join(outputDirectory, `${options.project}-${name}.log`);
  const json = join(outputDirectory, `${options.project}-${name}.json`);
  writeFileSync(json, "");
  const environment: Record<string, string | undefined> = { ...process.env };
  if (instant.start) environment.KANNT_TEST_CLOCK_START = instant.start;
  else delete environment.KANNT_TEST_CLOCK_START;
  // One descriptor for both streams, so the log reads in the order Vitest wrote it.
  const logFile = openSync(log, "w");
  const startedAt = performance.now();
  const child = Bun.spawn(
    [
      process.execPath,
      "--bun",
      "x",
      "vitest",
      "run",
      "--project",
      options.project,
      "--reporter=default",
      "--reporter=json",
      `--outputFile.json=${json}`,
      ...options.vitestArguments,
    ],
    { cwd: root, env: environment, stdin: "ignore", stdout: logFile, stderr: logFile },
  );
  const exitCode = await child.exited;
  closeSync(logFile);
  const seconds = Math.round((performance.now() - startedAt) / 1000);
  let report: JsonReport | undefined;
  try {
    report = JSON.parse(readFileSync(json, "utf8")) as JsonReport;
  } catch {
    // No report: Vitest stopped before its tests (a broken config, a global setup that failed).
  }
  const failures = (report?.testResults ?? []).flatMap((file) => {
    const path = file.name.replace(`${root}`, "");
    const failedTests = file.assertionResults.filter((test) => test.status === "failed");
    if (failedTests.length) return failedTests.map((test) => `${path} > ${test.fullName}`);
    // A file that failed outside its tests (an import, a hook) has no failed test of its own.
    return file.status === "failed" ? [`${path}: ${(file.message ?? "failed").split("\n")[0]}`] : [];
  });
  return {
    instant,
    exitCode,
    seconds,
    passed: report?.numPassedTests ?? 0,
    failed: report?.numFailedTests ?? 0,
    failures: report || exitCode === 0 ? failures : [`no report; see ${log}`],
    log,
  };
}

const instantName = (instant: CalendarInstant) => {
  if (!instant.start) return "no start (the wall clock)";
  return instant.label === instant.start ? instant.start : `${instant.start} (${instant.label})`;
};

const options = parseArguments(process.argv.slice(2));
const outputDirectory = mkdtempSync(join(tmpdir(), "kannt-test-calendar-"));
console.log(
  `${options.instants.length === 1 ? "1 run" : `${options.instants.length} runs, one after another,`} of the ${options.project} project; output in ${outputDirectory}`,
);
const results: RunResult[] = [];
for (const instant of options.instants) {
  console.log(`\n▶ ${instantName(instant)}`);
  const result = await runOnce(options, instant, outputDirectory);
  results.push(result);
  const verdict = result.exitCode === 0 ? "passed" : "FAILED";
  console.log(`  ${verdict}: ${result.passed} passed, ${result.failed} failed, ${result.seconds} s`);
  for (const failure of result.failures) console.log(`  ✗ ${failure}`);
  if (result.exitCode !== 0) console.log(`  output: ${result.log}`);
}

console.log(`\nSummary (${options.project}):`);
const width = Math.max(...results.map((result) => instantName(result.instant).length));
for (const result of results) {
  const verdict = result.exitCode === 0 ? "passed" : "FAILED";
  console.log(
    `  ${instantName(result.instant).padEnd(width)}  ${verdict.padEnd(6)}  ${String(result.passed).padStart(5)} passed  ${String(result.failed).padStart(3)} failed  ${String(result.seconds).padStart(5)} s`,
  );
}
const failedRuns = results.filter((result) => result.exitCode !== 0);
console.log(
  failedRuns.length ? `${failedRuns.length} of ${results.length} runs failed.` : "Every run passed.",
);
process.exit(failedRuns.length ? 1 : 0);
