import type { CoreKind } from "./core-messages.ts";
import { runCommand } from "./run-command.ts";

/** `V2Ray 4.34.0 (user) ...`, `Xray 25.3.6 (Xray, Penetrates Everything.) ...`: the first version number. */
export function versionFromOutput(output: string): string {
  return /\b(\d+\.\d+(?:\.\d+)?)\b/.exec(output)?.[1] ?? "unknown";
}

/**
 * The core's version, as its binary on PATH prints it. V2Ray 4 takes `-version` (given
 * `version` it would wait for a config on stdin); Xray takes the `version` command.
 */
export async function coreVersion(core: CoreKind): Promise<string> {
  const command = core === "xray" ? ["xray", "version"] : ["v2ray", "-version"];
  try {
    return versionFromOutput(await runCommand(command, 5_000));
  } catch {
    return "unknown";
  }
}
