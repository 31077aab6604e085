import type { App } from "../../bff/app";
import type { AppContext } from "../../bff/context";
import { createOperator } from "../../bff/modules/operators/accounts";
import { runOperatorCommand } from "../../bff/operator-commands";
import { withPeerAddress } from "../../bff/platform/client-address";
import { type Api, apiOf, type DataOf, dataOf } from "./api";
import { postJson, publicUrlOf } from "./app";
import { SoftwarePasskey } from "./software-passkey";

/**
 * The proof of work with Bun's native SHA-256: the same search the login page makes,
 * fast enough that tests can sign in many times.
 */
function findNumber(challenge: string, salt: string, maxNumber: number): number | undefined {
  for (let number = 0; number <= maxNumber; number++) {
    if (new Bun.CryptoHasher("sha256").update(salt + number).digest("hex") === challenge) return number;
  }
  return undefined;
}

/** Fetches a captcha challenge and solves its proof of work, as the login page does. */
export async function solveCaptcha(app: App): Promise<string> {
  const challenge = await dataOf(apiOf(app).auth.captcha.get());
  if (!("challenge" in challenge)) throw new Error(`captcha is ${challenge.provider}, not a proof of work`);
  const number = findNumber(challenge.challenge, challenge.salt, challenge.maxnumber ?? 1_000_000);
  if (number === undefined) throw new Error("captcha not solvable");
  const payload = {
    algorithm: challenge.algorithm,
    challenge: challenge.challenge,
    number,
    salt: challenge.salt,
    signature: challenge.signature,
  };
  return btoa(JSON.stringify(payload));
}

export async function makeOperator(
  context: AppContext,
  username: string,
  role: "admin" | "support",
  password = "correct horse battery staple",
) {
  await createOperator(context.database, username, password, role, context.clock.now());
  return { username, password };
}

/** A staff login as the form sends it; `address` is the socket peer the server sees. */
export async function login(
  app: App,
  username: string,
  password: string,
  headers: Record<string, string> = {},
  address = "127.0.0.1",
) {
  const captcha = await solveCaptcha(app);
  return app.handle(
    withPeerAddress(postJson("/api/auth/login", { username, password, captcha }, headers), address),
  );
}

/** What a staff login answers, as its route declares it. */
export type LoginAnswer = DataOf<Awaited<ReturnType<Api["auth"]["login"]["post"]>>>;
export type TokenPair = { accessToken: string; refreshToken: string };

/**
 * The passkeys the helpers enrolled, by operator name: one name may be an operator on
 * several test servers, so a sign-in takes the one its ticket's challenge allows.
 */
const enrolled = new Map<string, SoftwarePasskey[]>();

/** Adds a software passkey (a synced one's counter: 0) with a sign-in that may still add one. */
export async function enrolPasskey(api: Api, origin: string, accessToken: string, name = "Test passkey") {
  const passkey = new SoftwarePasskey({ origin });
  const options = await dataOf(
    api.panel.security.passkeys.options.post({}, { headers: bearer(accessToken) }),
  );
  const added = await dataOf(
    api.panel.security.passkeys.post(
      { challengeId: options.challengeId, name, credential: passkey.register(options.options) },
      { headers: bearer(accessToken) },
    ),
  );
  return { passkey, added };
}

/** The second step with a passkey, for the ticket a password step answered (none: a passkey alone). */
export async function passkeySignIn(api: Api, passkey: SoftwarePasskey, ticket?: string): Promise<TokenPair> {
  const options = await dataOf(api.auth.passkey.options.post(ticket === undefined ? {} : { ticket }));
  return dataOf(
    api.auth.passkey.post({ challengeId: options.challengeId, credential: passkey.assert(options.options) }),
  );
}

/**
 * The rest of a panel sign-in after its password step, as an operator makes it: the second
 * factor. An operator who must have one and has none enrols a software passkey with that
 * first sign-in (as the panel's enrolment screen has them do), which later sign-ins use.
 */
export async function finishSignIn(
  api: Api,
  origin: string,
  username: string,
  answer: LoginAnswer,
): Promise<TokenPair> {
  const name = username.trim().toLowerCase();
  if ("secondFactor" in answer) {
    const options = await dataOf(api.auth.passkey.options.post({ ticket: answer.secondFactor.ticket }));
    const allowed = new Set(options.options.allowCredentials?.map((credential) => credential.id));
    const passkey = enrolled.get(name)?.find((candidate) => allowed.has(candidate.id));
    if (!passkey) throw new Error(`${username} has a second factor that the test helpers did not add`);
    return dataOf(
      api.auth.passkey.post({
        challengeId: options.challengeId,
        credential: passkey.assert(options.options),
      }),
    );
  }
  if (answer.enrolmentRequired) {
    const { passkey } = await enrolPasskey(api, origin, answer.accessToken);
    enrolled.set(name, [...(enrolled.get(name) ?? []), passkey]);
  }
  return { accessToken: answer.accessToken, refreshToken: answer.refreshToken };
}

/** A full panel sign-in on a test app: the password, then the second factor (see finishSignIn). */
export async function tokensFor(app: App, username: string, password: string): Promise<TokenPair> {
  const response = await login(app, username, password);
  if (response.status !== 200) throw new Error(`login: ${response.status} ${await response.text()}`);
  // The login goes through the socket peer, which no client call can set: its answer is read by hand.
  const answer = (await response.json()) as LoginAnswer;
  return finishSignIn(apiOf(app), publicUrlOf(app), username, answer);
}

export const bearer = (accessToken: string) => ({ authorization: `Bearer ${accessToken}` });

/** The operator CLI (`npm run operator -- …`) run on the app's database at the test clock's time. */
export function operatorCommand(context: AppContext, args: readonly string[]) {
  return runOperatorCommand(context.database, args, context.clock.now());
}
