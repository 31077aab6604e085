import { createServer } from "node:net";
import PostalMime, { type Email } from "postal-mime";
import { SMTPServer, type SMTPServerError } from "smtp-server";

/** What the test mail server received: the parsed message, its envelope and who logged in. */
export type ReceivedMail = { parsed: Email; raw: string; envelopeTo: string[]; username: string | undefined };

export type SmtpBehaviour = {
  /** An SMTP reply code to refuse a recipient with (550, 450 …), or undefined to accept it. */
  refuseRecipient?: (address: string) => number | undefined;
  /** Answer every connection with this code (421: "service not available") instead of a greeting. */
  refuseConnections?: number;
  /** Hold each message this long before accepting it, so concurrent senders overlap. */
  dataDelayMs?: number;
};

export const smtpUser = "kannt-mailer";
export const smtpPassword = "smtp-test-password-0123456789";

const replyError = (message: string, responseCode: number): SMTPServerError =>
  Object.assign(new Error(message), { responseCode });

/** A free loopback port, closed again: connecting to it is refused until someone listens. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (!address || typeof address === "string") throw new Error("no port");
  return address.port;
}

/**
 * A real SMTP server (the smtp-server package) on a loopback port, requiring the login
 * the app's SMTP_URL carries. It can be stopped and started again on the same port, and
 * told to refuse connections or recipients, to play a mail server that is down or strict.
 */
export async function startSmtpServer(port: number, behaviour: SmtpBehaviour = {}) {
  const received: ReceivedMail[] = [];
  const state = { behaviour };
  let server: SMTPServer | undefined;

  const listen = async () => {
    server = new SMTPServer({
      // Plain SMTP on loopback: no STARTTLS to negotiate, the login allowed without TLS.
      disabledCommands: ["STARTTLS"],
      allowInsecureAuth: true,
      logger: false,
      // A stopped server drops the sender's pooled connections at once, as a crash would.
      closeTimeout: 50,
      onConnect(_session, callback) {
        const code = state.behaviour.refuseConnections;
        callback(code ? replyError("Service not available, try again later", code) : null);
      },
      onAuth(auth, _session, callback) {
        if (auth.username === smtpUser && auth.password === smtpPassword)
          return callback(null, { user: auth.username });
        callback(replyError("Invalid username or password", 535));
      },
      onRcptTo(address, _session, callback) {
        const code = state.behaviour.refuseRecipient?.(address.address);
        callback(code ? replyError(`Mailbox ${address.address} refused`, code) : null);
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", async () => {
          const raw = Buffer.concat(chunks).toString("utf8");
          await Bun.sleep(state.behaviour.dataDelayMs ?? 0);
          received.push({
            parsed: await PostalMime.parse(raw),
            raw,
            envelopeTo: session.envelope.rcptTo.map((recipient) => recipient.address),
            username: typeof session.user === "string" ? session.user : undefined,
          });
          callback(null);
        });
      },
    });
    const current = server;
    await new Promise<void>((resolve, reject) => {
      current.once("error", reject);
      current.listen(port, "127.0.0.1", () => resolve());
    });
  };

  await listen();
  return {
    port,
    received,
    url: `smtp://${smtpUser}:${smtpPassword}@127.0.0.1:${port}`,
    setBehaviour(next: SmtpBehaviour) {
      state.behaviour = next;
    },
    /** Stops listening and drops open connections: the server is down. */
    async stop() {
      const current = server;
      server = undefined;
      if (current) await new Promise<void>((resolve) => current.close(() => resolve()));
    },
    /** Listens again on the same port. */
    start: listen,
  };
}

export type TestSmtpServer = Awaited<ReturnType<typeof startSmtpServer>>;

/** A header of a received message, as sent (lower-case name). */
export function headerOf(mail: ReceivedMail, name: string): string | undefined {
  return mail.parsed.headers.find((header) => header.key === name.toLowerCase())?.value;
}
