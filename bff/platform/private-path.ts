import { lstatSync, type Stats, statSync } from "node:fs";

/**
 * Checks on what the operator's own programs trust on this machine: the server's control
 * socket (`npm run operator`, backup, restore talk to it) and the folder a backup is written
 * to. Either one in another user's hands, or open to other users' writes, lets that user
 * answer in the server's place or swap the copy of the database (card tokens, sessions).
 */

/** Undefined when only this process's user owns and may write `stats`; else what is wrong. */
function strangerAccess(stats: Stats): string | undefined {
  const ownUser = process.getuid?.();
  if (ownUser !== undefined && stats.uid !== ownUser) {
    return `it belongs to user ${stats.uid}, not to the user running this (${ownUser})`;
  }
  if ((stats.mode & 0o022) !== 0) {
    return `other users may write to it (mode ${(stats.mode & 0o777).toString(8).padStart(3, "0")})`;
  }
  return undefined;
}

/** Throws, naming the folder and what is wrong, unless it is this user's and closed to others' writes. */
export function assertPrivateFolder(path: string, role: string): void {
  const stats = statSync(path);
  if (!stats.isDirectory()) throw new Error(`The ${role} ${path} is not a folder.`);
  const problem = strangerAccess(stats);
  if (problem) {
    throw new Error(
      `Refusing the ${role} ${path}: ${problem}. Make it yours and owner-only (chown, then chmod 700), or name a file in another folder.`,
    );
  }
}

/**
 * Throws, naming the path and what is wrong, unless `path` is a socket (not a link to one)
 * of this user that other users cannot write to: only then is it this user's server.
 */
export function assertOwnSocket(path: string): void {
  const stats = lstatSync(path);
  const problem = stats.isSocket() ? strangerAccess(stats) : "it is not a socket";
  if (problem) {
    throw new Error(
      `Refusing the control socket ${path}: ${problem}. Only a server running as this user may be asked; find out who made it, stop that, and remove the file.`,
    );
  }
}
