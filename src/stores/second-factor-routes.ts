import { api } from "../lib/api-client";
import type {
  AuthenticationResponseJSON,
  CreationOptions,
  RegistrationResponseJSON,
  RequestOptions,
} from "../lib/passkeys";
import type { TokenPair } from "./panel-session";

/**
 * The second factor's routes, typed as /work/notes/2fa-contract.md words them, until the
 * server's `App` type carries them: the same client (`api`), whose calls go by path whatever
 * the type says. To be replaced by `api` itself once the server's routes are merged.
 */
type Answer<T> = Promise<{
  data: T | null;
  error: { status: unknown; value: unknown } | null;
  response?: Response;
}>;
type Headers = { headers: { authorization: string } };

export type SignInAnswer = TokenPair & { enrolmentRequired?: boolean };
export type Passkey = { id: string; name: string; createdAt: number; lastUsedAt: number | null };
export type Security = {
  passkeys: Passkey[];
  totp: { enabledAt: number } | null;
  recoveryCodesLeft: number;
  isRequired: boolean;
  freshUntil: number | null;
};
type Challenge<Options> = { challengeId: string; options: Options };
type Confirmation =
  | { password: string }
  | { kind: "totp" | "recovery"; code: string }
  | { challengeId: string; credential: AuthenticationResponseJSON };

type Routes = {
  auth: {
    passkey: {
      post(body: { challengeId: string; credential: AuthenticationResponseJSON }): Answer<SignInAnswer>;
      options: { post(body: { ticket?: string }): Answer<Challenge<RequestOptions>> };
    };
    "second-factor": {
      post(body: { ticket: string; kind: "totp" | "recovery"; code: string }): Answer<SignInAnswer>;
    };
  };
  panel: {
    security: {
      get(options: Headers): Answer<Security>;
      confirm: {
        post(body: Confirmation, options: Headers): Answer<{ freshUntil: number }>;
        options: { post(body: object, options: Headers): Answer<Challenge<RequestOptions>> };
      };
      passkeys: ((parameter: { id: string }) => {
        delete(body: object, options: Headers): Answer<unknown>;
      }) & {
        post(
          body: { challengeId: string; name: string; credential: RegistrationResponseJSON },
          options: Headers,
        ): Answer<{ passkey: Passkey; recoveryCodes?: string[] }>;
        options: { post(body: object, options: Headers): Answer<Challenge<CreationOptions>> };
      };
      totp: {
        post(body: { code: string }, options: Headers): Answer<{ recoveryCodes: string[] }>;
        delete(body: object, options: Headers): Answer<unknown>;
        start: {
          post(body: object, options: Headers): Answer<{ secret: string; uri: string; qrSvg: string }>;
        };
      };
      "recovery-codes": { post(body: object, options: Headers): Answer<{ recoveryCodes: string[] }> };
    };
  };
};

export const routes = api as unknown as Routes;
