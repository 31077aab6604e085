/**
 * Trouble on demand, for tests of retries and of an outage (the sandbox's own control, no
 * part of YooKassa's API): the next `count` calls of its API (or only its POSTs or GETs)
 * fail. `error`: HTTP 500; `timeout`: no answer for `holdMs`, then a 500 to a caller long
 * gone; `busy`: HTTP 429, nothing done. With `isWorkDone` a POST is done first and only its
 * answer is lost, which is what makes a retry under the same key matter: YooKassa's 500
 * leaves the outcome unknown.
 */
export type SandboxFault = {
  kind: "error" | "timeout" | "busy";
  isWorkDone: boolean;
  holdMs: number;
  method?: "GET" | "POST";
};

export function createFaults() {
  const armed: SandboxFault[] = [];
  return {
    arm(fault: SandboxFault, count: number): void {
      for (let index = 0; index < count; index++) armed.push(fault);
    },

    /** The fault this call meets, if one is armed for its method. */
    take(method: "GET" | "POST"): SandboxFault | undefined {
      const index = armed.findIndex((fault) => !fault.method || fault.method === method);
      if (index === -1) return undefined;
      const [fault] = armed.splice(index, 1);
      // A busy bank does nothing, whatever the test said.
      return fault && (fault.kind === "busy" ? { ...fault, isWorkDone: false } : fault);
    },

    clear(): void {
      armed.length = 0;
    },

    get armedCount(): number {
      return armed.length;
    },
  };
}

export type SandboxFaults = ReturnType<typeof createFaults>;
