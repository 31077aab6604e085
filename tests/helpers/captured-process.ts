import type { Subprocess } from "bun";

/**
 * Variables the server reads. The tests set each one they need; none is inherited from
 * the shell that runs the tests, so a developer's APP_MODE or GOOGLE_CLIENT_ID cannot
 * change what a test proves.
 */
const serverVariables = [
  "PORT",
  "HOST",
  "DATABASE_PATH",
  "DATABASE_URL",
  "PUBLIC_URL",
  "APP_MODE",
  "ADMIN_USERNAME",
  "ADMIN_PASSWORD",
  "JWT_SECRET",
  "GOOGLE_CLIENT_ID",
  "YANDEX_CLIENT_ID",
  "CLOUDPAYMENTS_PUBLIC_ID",
  "CLOUDPAYMENTS_API_SECRET",
  "CLOUDPAYMENTS_API_URL",
  "YOOKASSA_SHOP_ID",
  "YOOKASSA_SECRET_KEY",
  "YOOKASSA_API_URL",
  "RECAPTCHA_SITE_KEY",
  "RECAPTCHA_SECRET",
  "TRUSTED_PROXIES",
  "ALTCHA_MAX_NUMBER",
  "STATIC_DIR",
  "BILLING_INTERVAL_SECONDS",
  "LOG_LEVEL",
  "SMTP_URL",
  "MAIL_FROM",
  "METRICS_TOKEN",
  "RENEWAL_BATCH_SIZE",
  "RENEWAL_CONCURRENCY",
  "LOG_RETENTION_DAYS",
  "IP_RETENTION_DAYS",
  "TAXATION_SYSTEM",
  "RECEIPT_VAT",
  "SKIP_BUILD",
  "SANDBOX_LATENCY_MS",
  "SANDBOX_JITTER_MS",
  "SANDBOX_NOTIFICATION_URL",
];

export type CapturedProcess = {
  child: Subprocess<"ignore", "pipe", "pipe">;
  /** Everything the process wrote to stdout so far. */
  stdout(): string;
  /** Everything the process wrote to stderr so far. */
  stderr(): string;
  /** Resolves once both streams are closed, so the texts above are complete. */
  drained: Promise<void>;
};

/**
 * Runs `bun <script>` as its own process and keeps all of its stdout and stderr: the
 * log tests read every line, and a pipe nobody reads would stall a chatty server.
 */
export function spawnCaptured(script: string, environment: Record<string, string>): CapturedProcess {
  return spawnCapturedCommand(["bun", script], environment);
}

/** `command` as its own process, in `cwd`, with spawnCaptured's environment and captured streams. */
export function spawnCapturedCommand(
  command: string[],
  environment: Record<string, string>,
  cwd?: string,
): CapturedProcess {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !serverVariables.includes(name)),
  );
  const child = Bun.spawn(command, {
    env: { ...inherited, ...environment },
    cwd,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const texts = { stdout: "", stderr: "" };
  const drain = async (stream: ReadableStream<Uint8Array>, name: keyof typeof texts) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) texts[name] += decoder.decode(chunk, { stream: true });
    texts[name] += decoder.decode();
  };
  const drained = Promise.all([drain(child.stdout, "stdout"), drain(child.stderr, "stderr")]).then(
    () => undefined,
  );
  return { child, stdout: () => texts.stdout, stderr: () => texts.stderr, drained };
}

/**
 * Waits for the process's exit code. A process that is still running after `limitMs`
 * is killed and reported: a server that swallows a start-up error would otherwise hang
 * the test run instead of failing it.
 */
export async function exitCodeOf(captured: CapturedProcess, limitMs: number): Promise<number> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<"hung">((resolve) => {
    timer = setTimeout(() => resolve("hung"), limitMs);
  });
  const outcome = await Promise.race([captured.child.exited, hung]);
  clearTimeout(timer);
  if (outcome === "hung") {
    captured.child.kill(9);
    throw new Error(`the process was still running after ${limitMs} ms; stderr: ${captured.stderr()}`);
  }
  await captured.drained;
  return outcome;
}

export type RunningServer = CapturedProcess & { origin: string; stop(): Promise<void> };

/**
 * Starts tests/helpers/server-process.ts (the real server, printing READY <port>) with
 * both streams captured, and resolves once it listens.
 */
export async function startCapturedServer(environment: Record<string, string>): Promise<RunningServer> {
  const captured = spawnCaptured("tests/helpers/server-process.ts", { PORT: "0", ...environment });
  for (;;) {
    const port = captured.stdout().match(/READY (\d+)/)?.[1];
    if (port) {
      return {
        ...captured,
        origin: `http://127.0.0.1:${port}`,
        async stop() {
          captured.child.kill("SIGTERM");
          await captured.child.exited;
          await captured.drained;
        },
      };
    }
    if (captured.child.exitCode !== null || captured.child.signalCode !== null) {
      await captured.drained;
      throw new Error(`the server exited before it was ready: ${captured.stderr()}`);
    }
    await Bun.sleep(20);
  }
}
