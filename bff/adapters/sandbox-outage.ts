/**
 * A sandbox provider taken down on demand (demo only, POST /api/dev/sandbox/outage): while
 * it is down, every call of its API and every payment on its payer's pages answers 503 and
 * does nothing, as a provider in an outage would. It lets the shop's failover of new
 * purchases and its renewals' recovery be shown, and tested against a real server process,
 * where a test cannot reach inside the sandbox.
 */
export function createSandboxOutage() {
  let isDown = false;
  return {
    get isDown(): boolean {
      return isDown;
    },
    set(down: boolean): void {
      isDown = down;
    },
  };
}

export type SandboxOutage = ReturnType<typeof createSandboxOutage>;
