import { open, stat } from "node:fs/promises";
import { isAbsolute } from "node:path";
import { accessLogSettings } from "./core-config.ts";

/**
 * Revocation reads the core's access log to learn whose every open connection is (DESIGN
 * §8): an agent following a file the core does not write would remove revoked users and
 * leave their open connections flowing. So a wrong CORE_ACCESS_LOG stops the agent at
 * start, with the reason, instead of silently disabling the cut.
 */
export async function accessLogProblem(
  accessLogPath: string,
  configText: string,
): Promise<string | undefined> {
  const named = `CORE_ACCESS_LOG (${accessLogPath})`;
  const { access, maskAddress } = accessLogSettings(configText);
  if (!access || access === "none")
    return `${named}: the core's config (CORE_CONFIG) writes no access log file (log.access is ${access ? '"none"' : "not set"}); set log.access to ${accessLogPath} and restart the core.`;
  if (!isAbsolute(access))
    return `${named}: the core's config names its access log by a relative path (${access}); give log.access as an absolute path.`;
  if (maskAddress)
    return `${named}: the core's config masks client addresses (log.maskAddress is "${maskAddress}"); remove it: the agent closes a revoked device's connections by their addresses.`;
  try {
    const file = await open(accessLogPath, "r");
    try {
      // A read, not only an open: a folder opens, and only reading it fails.
      await file.read(new Uint8Array(1), 0, 1, 0);
    } finally {
      await file.close();
    }
  } catch (error) {
    return `${named} cannot be read: ${(error as Error).message}. Start the core first (it creates the file) and run the agent as root.`;
  }
  const [given, configured] = await Promise.all([stat(accessLogPath), stat(access).catch(() => undefined)]);
  if (!configured || given.dev !== configured.dev || given.ino !== configured.ino)
    return `${named} is not the file the core's config writes its access log to (${access}): set CORE_ACCESS_LOG=${access}.`;
  return undefined;
}
