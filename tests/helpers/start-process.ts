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

/** `bun args…` with `env` as its whole environment, run to its end: its exit code and all it wrote. */
async function runBun(args: string[], env: Record<string, string | undefined>) {
  const child = Bun.spawn(["bun", ...args], { env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { code, stdout, stderr };
}

/**
 * `bun args…` in demo mode with PATH, HOME and `settings` as its whole environment (no
 * database setting of the shell running the tests reaches it), run to its end: gives its
 * exit code and all it wrote.
 */
export function runDemoScript(args: string[], settings: Record<string, string | undefined>) {
  return runBun(args, {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    APP_MODE: "demo",
    ...settings,
  });
}

/**
 * `npm run operator -- args…` as its own process, on the shell's environment with
 * `environment` over it and errors only logged, run to its end: its exit code and all it wrote.
 */
export function runOperatorCli(args: string[], environment: Record<string, string>) {
  return runBun(["bff/cli.ts", ...args], { ...process.env, ...environment, LOG_LEVEL: "error" });
}
