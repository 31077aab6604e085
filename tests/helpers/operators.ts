import type { App } from "../../bff/app";
import type { AppContext } from "../../bff/context";
import { createOperator } from "../../bff/modules/operators/accounts";
import { withPeerAddress } from "../../bff/platform/client-address";
import { type Api, apiOf, type DataOf, dataOf } from "./api";
import { postJson } from "./app";

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

/** The token pair a staff login answers, as its route declares it. */
type TokenPair = DataOf<Awaited<ReturnType<Api["auth"]["login"]["post"]>>>;

export async function tokensFor(app: App, username: string, password: string) {
  const response = await login(app, username, password);
  if (response.status !== 200) throw new Error(`login: ${response.status} ${await response.text()}`);
  // The login goes through the socket peer, which no client call can set: its answer is read by hand.
  return (await response.json()) as TokenPair;
}

export const bearer = (accessToken: string) => ({ authorization: `Bearer ${accessToken}` });
