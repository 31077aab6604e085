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
