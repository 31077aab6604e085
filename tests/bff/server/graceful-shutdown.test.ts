import { mkdtempSync, readFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { afterEach, describe, expect, test } from "vitest";
import { runRenewals } from "../../../bff/jobs/renewals";
import { makeTestApp } from "../../helpers/app";
import { advanceDays, payingCustomers, runBilling } from "../../helpers/payments";
import { startProcess } from "../../helpers/start-process";
import { testDatabaseUrl } from "../../helpers/test-database";

/** DESIGN §16: SIGTERM stops listening, answers what is in flight and exits 0. */
let child: Subprocess | undefined;
afterEach(() => {
  child?.kill(9);
  child = undefined;
});

/** Everything the server sends on a socket until it closes it. */
function readAll(socket: Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    socket.on("data", (chunk) => {
      text += chunk.toString();
    });
    socket.on("end", () => resolve(text));
    socket.on("close", () => resolve(text));
    socket.on("error", reject);
  });
}

/**
 * Whether the server has read everything sent to it on the connection from `clientPort`: the
 * kernel's receive queue of its end is empty (Linux's /proc/net/tcp and tcp6, where a server
 * listening on every interface holds IPv4 connections). Bun parses what it reads and calls
 * the request's handler in that same callback, before a signal's handler can run, so from
 * then on the request is in flight, however busy the machine.
 */
function serverHasRead(serverPort: number, clientPort: number): boolean {
  const hex = (port: number) => `:${port.toString(16).toUpperCase().padStart(4, "0")}`;
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    for (const line of readFileSync(table, "utf8").split("\n").slice(1)) {
      const [, local, remote, , queues] = line.trim().split(/\s+/);
      if (local?.endsWith(hex(serverPort)) && remote?.endsWith(hex(clientPort)))
        return queues?.split(":")[1] === "00000000";
    }
  }
  return false;
}

describe("SIGTERM", () => {
  test("with a request in flight: no new connections, the request is answered, exit 0", async () => {
    const directory = mkdtempSync(join(tmpdir(), "kannt-stop-"));
    const databaseUrl = await testDatabaseUrl();
    const started = await startProcess("tests/helpers/server-process.ts", {
      APP_MODE: "demo",
      DATABASE_PATH: join(directory, "app.db"),
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      STATIC_DIR: join(directory, "no-site"),
    });
    child = started.child;
    const origin = `http://127.0.0.1:${started.port}`;

    // A request whose body is half sent: the server has it, and cannot answer it yet.
    const body = JSON.stringify({ email: "in.flight@example.com" });
    const socket = connect(started.port, "127.0.0.1");
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
    const answer = readAll(socket);
    socket.write(
      `POST /api/dev/idp/token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, 10)}`,
    );
    // Sent is not yet received: on a busy machine the server may not have read the headers
    // 200 ms later, and a connection with no request yet is simply closed by the stop.
    while (!serverHasRead(started.port, socket.localPort ?? 0)) await Bun.sleep(10);

    const stoppedAt = performance.now();
    started.child.kill("SIGTERM");
    // Listening stops at once: a new connection is refused while the request in flight
    // still waits for its body. Polled for as long as the signal takes to arrive on a busy
    // machine; a server that kept listening would be refused only once it had exited, and
    // then could not answer the request below.
    let refused = false;
    while (!refused) {
      refused = await fetch(`${origin}/api/health`).then(
        () => false,
        () => true,
      );
      if (!refused) await Bun.sleep(20);
    }

    // The request in flight is still answered in full.
    socket.write(body.slice(10));
    const response = await answer;
    expect(response).toMatch(/^HTTP\/1\.1 200/);
    expect(response).toContain('"email":"in.flight@example.com"');

    expect(await started.child.exited).toBe(0);
    expect(performance.now() - stoppedAt).toBeLessThan(15_000);
  });
});

describe("a renewal pass told to stop", () => {
  test("finishes the batch under way, starts no other, and the next pass charges the rest", async () => {
    const stopping = new AbortController();
    const testApp = await makeTestApp({ RENEWAL_BATCH_SIZE: "4" }, { stopping: stopping.signal });
    await payingCustomers(testApp.app, 10, "stopping");
    await runBilling(testApp.app); // the pre-charge notices, 24 hours ahead (DESIGN §13(a))
    await advanceDays(testApp.app, 1.5);

    // The stop arrives while the first batch is being charged.
    const { gateway } = testApp.context.payments;
    const chargeToken = gateway.chargeToken.bind(gateway);
    gateway.chargeToken = (...args) => {
      stopping.abort();
      return chargeToken(...args);
    };
    const cut = await runRenewals(testApp.context);
    expect(cut).toMatchObject({ charged: 4, completed: 4 });

    const rest = await runRenewals({ ...testApp.context, stopping: new AbortController().signal });
    expect(rest).toMatchObject({ recovered: 0, charged: 6, completed: 6 });
  });

  test("a batch that would outlast the stop sends no more once its time is up; the rest is due again at once", async () => {
    const stopping = new AbortController();
    const testApp = await makeTestApp({ RENEWAL_BATCH_SIZE: "4" }, { stopping: stopping.signal });
    await payingCustomers(testApp.app, 6, "outlast");
    await runBilling(testApp.app);
    await advanceDays(testApp.app, 1.5);
    const { gateway } = testApp.context.payments;
    const chargeToken = gateway.chargeToken.bind(gateway);
    let sent = 0;
    gateway.chargeToken = (...args) => {
      sent++;
      stopping.abort();
      return chargeToken(...args);
    };
    // No grace: the first charge goes, the other three of its batch are never sent.
    const cut = await runRenewals(testApp.context, { stopGraceMs: 0 });
    expect(cut).toMatchObject({ charged: 1, completed: 1 });
    expect(sent).toBe(1);
    const unsent = await testApp.context.database.all<{ status: string; decline_reason: string }>(
      "SELECT status, decline_reason FROM payments WHERE kind = 'renewal' AND status <> 'completed'",
    );
    expect(unsent).toEqual(Array(3).fill({ status: "declined", decline_reason: "not sent to the gateway" }));

    // The next pass (after a restart, or another instance) charges the other five now,
    // without waiting for the stopped pass's lease; each customer is charged once.
    const rest = await runRenewals({ ...testApp.context, stopping: new AbortController().signal });
    expect(rest).toMatchObject({ recovered: 0, charged: 5, completed: 5 });
    const completed = await testApp.context.database.all<{ subscription_id: number }>(
      "SELECT subscription_id FROM payments WHERE kind = 'renewal' AND status = 'completed'",
    );
    expect(new Set(completed.map((row) => row.subscription_id)).size).toBe(6);
    expect(completed).toHaveLength(6);
  });
});
