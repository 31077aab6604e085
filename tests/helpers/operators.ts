import { solveChallenge } from "altcha-lib/v1";
import type { createApp } from "../../bff/app";
import { createOperator } from "../../bff/modules/operators/accounts";
import type { AppContext } from "../../bff/platform/context";
import { postJson, request } from "./app";

type App = ReturnType<typeof createApp>;

/** Fetches a captcha challenge and solves its proof of work, as the login page does. */
export async function solveCaptcha(app: App): Promise<string> {
  const challenge = (await (await app.handle(request("/api/auth/captcha"))).json()) as {
    algorithm: string;
    challenge: string;
    maxnumber?: number;
    salt: string;
    signature: string;
  };
  const solution = await solveChallenge(
    challenge.challenge,
    challenge.salt,
    challenge.algorithm,
    challenge.maxnumber,
  ).promise;
  if (!solution) throw new Error("captcha not solvable");
  const payload = {
    algorithm: challenge.algorithm,
    challenge: challenge.challenge,
    number: solution.number,
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

export async function login(
  app: App,
  username: string,
  password: string,
  headers: Record<string, string> = {},
) {
  return app.handle(
    postJson("/api/auth/login", { username, password, captcha: await solveCaptcha(app) }, headers),
  );
}

export async function tokensFor(app: App, username: string, password: string) {
  const response = await login(app, username, password);
  if (response.status !== 200) throw new Error(`login: ${response.status} ${await response.text()}`);
  return (await response.json()) as { accessToken: string; refreshToken: string };
}

export const bearer = (accessToken: string) => ({ authorization: `Bearer ${accessToken}` });
