import { execFile } from "node:child_process";

/**
 * Runs a program and answers what it printed, on Bun or Node alike: `ss` to list and close
 * sockets, the core to say its version. A program that fails, or outlasts `timeoutMs`, is an
 * error naming it and what it said on stderr.
 */
export function runCommand(command: string[], timeoutMs: number): Promise<string> {
  const [program = "", ...args] = command;
  return new Promise((resolve, reject) => {
    execFile(program, args, { timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error)
        reject(
          new Error(`${command.join(" ")} failed (${error.code ?? error.signal}): ${String(stderr).trim()}`),
        );
      else resolve(String(stdout));
    });
  });
}
