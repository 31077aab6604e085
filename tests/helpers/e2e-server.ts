import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer } from "../../bff/server";
import { enrolPanelAdmin, forgetPanelAdmin } from "./browser/panel-admin";
import { e2eJwtSecret } from "./e2e-secrets";
import { makeMailCustomer, queueMail } from "./mail";

// The real server on a fresh database in a temporary folder, so browser tests never
// touch data/ and always start from nothing: the one playwright.config.ts made for this run,
// where a test's operator command finds the server's control socket.
const directory = process.env.E2E_DATA_DIRECTORY || mkdtempSync(join(tmpdir(), "kannt-e2e-"));
forgetPanelAdmin();
const { context } = await startServer({
  ...process.env,
  DATABASE_PATH: join(directory, "app.db"),
  JWT_SECRET: e2eJwtSecret,
});

// The administrator every panel test signs in as must have a second factor (DESIGN §12).
await enrolPanelAdmin();

/** The one message the demo mailbox test reads: queued as an event queues it, sent by the worker. */
export const seededMailAddress = "mail.seed@example.com";
await queueMail(context, await makeMailCustomer(context, seededMailAddress, "en"), "e2e-seed");
