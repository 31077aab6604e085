import type { Subprocess } from "bun";

/** Starts a server script as its own process and resolves with its port once it prints READY. */
export async function startProcess(script: string, environment: Record<string, string> = {}) {
  const child = Bun.spawn(["bun", script], {
    env: { ...process.env, ...environment },
    stdout: "pipe",
    stderr: "inherit",
  });
  const reader = child.stdout.getReader();
  let output = "";
  while (!output.includes("READY")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`${script} exited before it was ready`);
    output += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  const port = Number(output.match(/READY (\d+)/)?.[1]);
  return { child: child as Subprocess, port, stop: () => child.kill() };
}
