import { atom } from "nanostores";
import { api } from "../lib/api-client";
import { translate } from "../lib/i18n/runtime";
import { askForPasskey } from "../lib/passkeys";
import { panelCall } from "./panel-session";

import { failureText, passkeyProblemText } from "./second-factor-words";

/**
 * The fresh check (DESIGN §12): adding or removing a factor needs the password or a factor
 * checked within the last five minutes. When the server asks for one, a dialog asks the
 * operator; the change that met the refusal waits for it and then runs again.
 */
export type FreshCheck = {
  /** The way being checked now; every button of the dialog waits while one runs. */
  checking?: "password" | "passkey" | "code";
  error?: string;
};
/** The dialog, open while defined. */
export const $freshCheck = atom<FreshCheck | undefined>();

let waiting: Promise<boolean> | undefined;
let settle: ((isConfirmed: boolean) => void) | undefined;

/**
 * Opens the dialog; true once the operator is checked, false when they close it. Changes that
 * meet the refusal together wait on the one dialog.
 */
export function requestFreshCheck(): Promise<boolean> {
  waiting ??= new Promise<boolean>((resolve) => {
    settle = resolve;
    $freshCheck.set({});
  });
  return waiting;
}

function close(isConfirmed: boolean): void {
  $freshCheck.set(undefined);
  settle?.(isConfirmed);
  waiting = undefined;
  settle = undefined;
}

export const cancelFreshCheck = () => close(false);

type Confirmation = Parameters<typeof api.panel.security.confirm.post>[0];

/** One check at a time; the dialog closes (and the change goes on) when it is accepted. */
async function checking(way: NonNullable<FreshCheck["checking"]>, check: () => Promise<string | undefined>) {
  if (!$freshCheck.get() || $freshCheck.get()?.checking) return;
  $freshCheck.set({ checking: way });
  let error: string | undefined;
  try {
    error = await check();
  } catch {
    error = translate("panel.connectionFailed");
  }
  if (!$freshCheck.get()) return;
  if (error === undefined) close(true);
  else $freshCheck.set({ error });
}

async function confirm(body: Confirmation): Promise<string | undefined> {
  const { data, error } = await panelCall((headers) => api.panel.security.confirm.post(body, { headers }));
  return data ? undefined : failureText(error);
}

export const confirmWithPassword = (password: string) =>
  checking("password", () =>
    password ? confirm({ password }) : Promise.resolve(translate("panel.freshPasswordMissing")),
  );

/** The authenticator app's current code. */
export const confirmWithCode = (code: string) =>
  checking("code", () => {
    const typed = code.replace(/\s+/g, "");
    return typed
      ? confirm({ kind: "totp", code: typed })
      : Promise.resolve(translate("panel.factorCodeMissing"));
  });

export const confirmWithPasskey = () =>
  checking("passkey", async () => {
    const challenge = await panelCall((headers) => api.panel.security.confirm.options.post({}, { headers }));
    if (!challenge.data) return failureText(challenge.error);
    const used = await askForPasskey(challenge.data.options);
    if ("problem" in used) return passkeyProblemText(used.problem);
    return confirm({ challengeId: challenge.data.challengeId, credential: used.response });
  });
