import { chmodSync, existsSync, linkSync, lstatSync, mkdtempSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { ControlError } from "./control-socket";
import { assertPrivateFolder } from "./private-path";

const alreadyThere = (target: string, isLink: boolean) =>
  new ControlError(
    409,
    `${target} already exists${isLink ? " (a symbolic link)" : ""}; a backup never writes over or through one. Name a new file.`,
  );

/**
 * Refuses a target that is there in any form. A link counts: `existsSync` follows it, so a
 * link to nowhere would read as free, and the copy would be written wherever it points.
 */
export function refuseExistingTarget(target: string): void {
  let isLink: boolean;
  try {
    isLink = lstatSync(target).isSymbolicLink();
  } catch {
    return;
  }
  throw alreadyThere(target, isLink);
}

/**
 * Has `write` make the copy in a private folder (0700, made here) beside `target`, then
 * links it in as `target`: a hard link never follows a link at its new name and never
 * replaces anything there, so a file or link put at `target` meanwhile is refused, not
 * written through. The target's folder must be this user's and closed to others.
 */
export async function writeNewBackup(
  target: string,
  write: (temporary: string) => Promise<void>,
): Promise<void> {
  const folder = dirname(target);
  if (!existsSync(folder)) throw new ControlError(400, `The folder ${folder} does not exist.`);
  try {
    assertPrivateFolder(folder, "backup folder");
  } catch (error) {
    throw new ControlError(403, error instanceof Error ? error.message : String(error));
  }
  refuseExistingTarget(target);
  const privateFolder = mkdtempSync(join(folder, ".kannt-backup-"));
  try {
    const temporary = join(privateFolder, basename(target));
    await write(temporary);
    // Card tokens and sessions: owner-only, like the database itself (DESIGN §12).
    chmodSync(temporary, 0o600);
    try {
      linkSync(temporary, target);
    } catch (error) {
      if ((error as { code?: string }).code === "EEXIST") {
        throw alreadyThere(target, lstatSync(target).isSymbolicLink());
      }
      throw error;
    }
  } finally {
    rmSync(privateFolder, { recursive: true, force: true });
  }
}
