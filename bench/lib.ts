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

/** The fields of /proc/<pid>/stat after the command name (state first), or none once it is gone. */
function statFields(pid: number | string): string[] {
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  } catch {
    return [];
  }
}

/**
 * CPU seconds a PostgreSQL cluster has used so far: its postmaster (found by the port it
 * listens on), the backends and workers running under it, and those that ended (the
 * postmaster waited for them, so their time is in its children's fields). Other clusters
 * on the machine, other test runs' among them, are not counted.
 */
export function postgresClusterCpuSeconds(port: number): number {
  const processes = readdirSync("/proc").filter((entry) => /^\d+$/.test(entry));
  const postmaster = processes.find((pid) => {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      return args[0]?.endsWith("postgres") && args[args.indexOf("-p") + 1] === String(port);
    } catch {
      return false;
    }
  });
  if (!postmaster) throw new Error(`no PostgreSQL listens on port ${port}`);
  // utime, stime, cutime and cstime are the 12th to 15th fields after the name, in clock ticks.
  const own = statFields(postmaster).slice(11, 15);
  let ticks = own.reduce((sum, field) => sum + Number(field), 0);
  for (const pid of processes) {
    const fields = statFields(pid);
    if (fields[1] === postmaster) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / 100;
}
