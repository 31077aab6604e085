import { createHash } from "node:crypto";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type SavedPasskey, SoftwarePasskey } from "../software-passkey";

/**
 * The browser tests' administrator (`e2e.admin`) and their second factor (DESIGN §12). The
 * test server enrols a software passkey for them once, through the API, as soon as it
 * starts, and saves it where every test worker finds it: a synced passkey's counter (0),
 * so any number of parallel sign-ins may use it. Tests of the sign-in screens themselves
 * use operators of their own.
 */
export const panelAdmin = { username: "e2e.admin", password: "e2e admin password 1" };

const port = () => Number(process.env.E2E_PORT ?? process.env.PORT ?? 3210);
const base = () => `http://localhost:${port()}`;
const savedFile = () => join(tmpdir(), `kannt-e2e-admin-passkey-${port()}.json`);

type Saved = SavedPasskey & { recoveryCodes: string[] };

async function post<Answer>(path: string, body: unknown, accessToken?: string): Promise<Answer> {
  const response = await fetch(`${base()}${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(accessToken && { authorization: `Bearer ${accessToken}` }),
    },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Answer;
}

/** An ALTCHA challenge as `GET /api/auth/captcha` answers it. */
export type CaptchaChallenge = {
  algorithm: string;
  challenge: string;
  maxnumber?: number;
  salt: string;
  signature: string;
};

/** The staff captcha's proof of work solved as the login form's widget solves it: the payload it sends. */
export function solveChallenge({
  algorithm,
  challenge,
  maxnumber,
  salt,
  signature,
}: CaptchaChallenge): string {
  for (let number = 0; number <= (maxnumber ?? 1_000_000); number++) {
    if (
      createHash("sha256")
        .update(salt + number)
        .digest("hex") === challenge
    )
      return btoa(JSON.stringify({ algorithm, challenge, number, salt, signature }));
  }
  throw new Error("captcha not solvable");
}

/** A solved staff captcha, fetched from the test server. */
export async function solvedCaptcha(): Promise<string> {
  return solveChallenge((await (await fetch(`${base()}/api/auth/captcha`)).json()) as CaptchaChallenge);
}

type LoginAnswer =
  | { accessToken: string; refreshToken: string; enrolmentRequired?: true }
  | { secondFactor: { ticket: string } };
type Options = { challengeId: string; options: never };
export type PanelTokens = { accessToken: string; refreshToken: string };

const passwordStep = async (credentials = panelAdmin) =>
  post<LoginAnswer>("/api/auth/login", { ...credentials, captcha: await solvedCaptcha() });

/** Before the test server starts: a passkey saved by an earlier run is not this database's. */
export const forgetPanelAdmin = () => rmSync(savedFile(), { force: true });

/** At the test server's start: the administrator's first sign-in enrols the passkey the tests share. */
export async function enrolPanelAdmin(): Promise<void> {
  const answer = await passwordStep();
  if (!("accessToken" in answer))
    throw new Error("the browser tests' administrator already has a second factor");
  const passkey = new SoftwarePasskey({ origin: base() });
  const registration = await post<Options>("/api/panel/security/passkeys/options", {}, answer.accessToken);
  const added = await post<{ recoveryCodes?: string[] }>(
    "/api/panel/security/passkeys",
    {
      challengeId: registration.challengeId,
      name: "Browser tests",
      credential: passkey.register(registration.options),
    },
    answer.accessToken,
  );
  const saved: Saved = { ...passkey.save(), recoveryCodes: added.recoveryCodes ?? [] };
  writeFileSync(savedFile(), JSON.stringify(saved), { mode: 0o600 });
}

/** The shared passkey, once the server has enrolled it (it does so as it starts). */
async function adminPasskey(): Promise<SoftwarePasskey> {
  for (let attempt = 0; attempt < 300 && !existsSync(savedFile()); attempt++)
    await new Promise((resolve) => setTimeout(resolve, 100));
  const saved = JSON.parse(readFileSync(savedFile(), "utf8")) as Saved;
  return new SoftwarePasskey({ origin: base() }, saved);
}

/** A full sign-in of the administrator, as the panel makes it: password and captcha, then the passkey. */
export async function panelAdminTokens(): Promise<PanelTokens> {
  const passkey = await adminPasskey();
  const answer = await passwordStep();
  if (!("secondFactor" in answer)) throw new Error("the browser tests' administrator has no second factor");
  const options = await post<Options>("/api/auth/passkey/options", { ticket: answer.secondFactor.ticket });
  return post<PanelTokens>("/api/auth/passkey", {
    challengeId: options.challengeId,
    credential: passkey.assert(options.options),
  });
}
