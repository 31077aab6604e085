import type { Database } from "../../db/database";
import { renewalLeases } from "../../db/queries/renewal-leases";
import { sqliteFile } from "../../db/queries/sqlite-file";
import type { Clock } from "../platform/clock";
import { logger } from "../platform/logger";
import { randomToken } from "../platform/random";

/**
 * Timings (DESIGN §15), all in real time. A lease lives 30 s and is renewed every 10 s
 * while its pass works, checked before every gateway call: a call therefore starts with
 * at least 20 s left, and the HTTP client gives up on a call after 10 s, so a call sent
 * under a lease has ended before anyone may treat its attempt as left over. A working
 * pass also sweeps for dead passes' attempts every 20 s, and the scheduler runs a pass
 * every 60 s, so they are settled within 60 s of their lease expiring.
 */
export const leaseMs = 30_000;
const renewEveryMs = 10_000;
const sweepEveryMs = 20_000;

/** New at every start of the process: tells this process's leases from those of earlier ones. */
const processId = randomToken(12);
let passSequence = 0;

const exclusiveDatabases = new WeakMap<Database, boolean>();

/**
 * SQLite in exclusive locking mode (bff/platform/database.ts) lets one process at a time
 * write the file, so once a pass has written its lease every lease of another process
 * belongs to one that is gone (killed or stopped): its attempts are left over at once,
 * which is what lets a restart after `kill -9` finish the pass without waiting. Where
 * several processes share a database (PostgreSQL), only an expired lease counts as dead;
 * the pragma is SQLite's own and is never sent there.
 */
async function holdsDatabaseAlone(database: Database): Promise<boolean> {
  if (database.engine !== "sqlite") return false;
  let isExclusive = exclusiveDatabases.get(database);
  if (isExclusive === undefined) {
    isExclusive = (await sqliteFile.lockingMode(database)) === "exclusive";
    exclusiveDatabases.set(database, isExclusive);
  }
  return isExclusive;
}

export type RenewalLease = {
  readonly owner: string;
  /** The only process whose leases may be alive, or null when any may (see holdsDatabaseAlone). */
  readonly liveProcessId: string | null;
  now(): number;
  /** Call before every gateway call: renews when due; false once the lease is lost, and the pass must stop. */
  keep(): Promise<boolean>;
  isSweepDue(): boolean;
  markSwept(): void;
  /** Ends the lease, unless an attempt under it has no known outcome: then it runs out on its own first. */
  release(): Promise<void>;
};

export async function takeRenewalLease(database: Database, clock: Clock): Promise<RenewalLease> {
  passSequence += 1;
  const owner = `${processId}-${passSequence}`;
  const takenAt = clock.now();
  await renewalLeases.take(database, owner, processId, takenAt + leaseMs, takenAt);
  const liveProcessId = (await holdsDatabaseAlone(database)) ? processId : null;
  let renewedAt = takenAt;
  let sweptAt = takenAt;
  let isLost = false;
  let renewing: Promise<boolean> | undefined;
  return {
    owner,
    liveProcessId,
    now: () => clock.now(),
    keep() {
      if (isLost) return Promise.resolve(false);
      const now = clock.now();
      if (now - renewedAt < renewEveryMs) return Promise.resolve(true);
      // Calls in flight at once ask together; one renewal answers them all.
      renewing ??= (async () => {
        try {
          if (await renewalLeases.renew(database, owner, now + leaseMs, now)) {
            renewedAt = now;
            return true;
          }
          isLost = true;
          logger.warn("renewal pass lost its lease and stops; another pass settles its attempts", { owner });
          return false;
        } finally {
          renewing = undefined;
        }
      })();
      return renewing;
    },
    isSweepDue: () => clock.now() - sweptAt >= sweepEveryMs,
    markSwept() {
      sweptAt = clock.now();
    },
    async release() {
      if (!isLost && !(await renewalLeases.hasPending(database, owner)))
        await renewalLeases.release(database, owner);
    },
  };
}
