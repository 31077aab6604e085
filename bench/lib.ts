import { readdirSync, readFileSync } from "node:fs";

export { startProcess } from "../tests/helpers/start-process";

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

export type WrkResult = { requestsPerSecond: number; p50Ms: number; p99Ms: number; errors: number };

const toMs = (text: string | undefined) => {
  const match = text?.match(/([\d.]+)(us|ms|s)/);
  if (!match) return Number.NaN;
  const value = Number(match[1]);
  return match[2] === "us" ? value / 1000 : match[2] === "s" ? value * 1000 : value;
};

/** One wrk run (one thread, so the server keeps the other core); parses its summary. */
export function runWrk(url: string, seconds: number, connections: number, script?: string): WrkResult {
  const args = [
    "wrk",
    "-t1",
    `-c${connections}`,
    `-d${seconds}s`,
    "--latency",
    ...(script ? ["-s", script] : []),
    url,
  ];
  const run = Bun.spawnSync(args, { stdout: "pipe", stderr: "pipe" });
  const output = run.stdout.toString();
  if (run.exitCode !== 0) throw new Error(`wrk failed: ${run.stderr.toString()}`);
  const errors = output.match(/Non-2xx or 3xx responses: (\d+)/)?.[1];
  return {
    requestsPerSecond: Number(output.match(/Requests\/sec:\s+([\d.]+)/)?.[1] ?? 0),
    p50Ms: toMs(output.match(/50%\s+(\S+)/)?.[1]),
    p99Ms: toMs(output.match(/99%\s+(\S+)/)?.[1]),
    errors: Number(errors ?? 0),
  };
}

export function requireCommand(command: string, hint: string): void {
  if (Bun.spawnSync(["sh", "-c", `command -v ${command}`]).exitCode !== 0) {
    console.error(`${command} is not installed: ${hint}`);
    process.exit(1);
  }
}

/** CPU seconds (user + system) a process has used so far; 0 once it is gone. */
export function cpuSecondsOf(pid: number): number {
  try {
    // Fields after the command name: utime and stime are the 12th and 13th, in clock ticks.
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** CPU seconds of every running process whose command starts with `name`, by pid. */
export function cpuSecondsByCommand(name: string): Map<number, number> {
  const seconds = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, "utf8").startsWith(name))
        seconds.set(Number(entry), cpuSecondsOf(Number(entry)));
    } catch {
      // The process ended while the list was read.
    }
  }
  return seconds;
}

/** CPU seconds the processes named `name` used between two readings (new ones count whole). */
export function cpuSecondsBetween(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, seconds] of after) total += seconds - (before.get(pid) ?? 0);
  return total;
}
