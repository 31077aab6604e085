import type { ErrorCode } from "../../bff/platform/errors";
import { api, errorCode } from "../lib/api-client";
import { translate } from "../lib/i18n/runtime";
import { readStorage, removeStorage, storageKeys, writeStorage } from "../lib/storage-keys";
import { queueToastForNextPage } from "../lib/toast/toast-store";
import { singleFlight } from "./panel-single-flight";

export type TokenPair = { accessToken: string; refreshToken: string };

export function storeTokens(tokens: TokenPair): void {
  writeStorage(storageKeys.accessToken, tokens.accessToken);
  writeStorage(storageKeys.refreshToken, tokens.refreshToken);
}

export function clearTokens(): void {
  try {
    localStorage.removeItem(storageKeys.accessToken);
    localStorage.removeItem(storageKeys.refreshToken);
  } catch {
    // Nothing stored, nothing to clear.
  }
}

/** Exchanges the stored refresh token for a new pair (rotation); false when there is none or it is refused. */
async function exchangeRefreshToken(): Promise<boolean> {
  const refreshToken = readStorage(storageKeys.refreshToken);
  if (!refreshToken) return false;
  try {
    const { data } = await api.auth.refreshToken.post({ refreshToken });
    if (!data) return false;
    storeTokens(data);
    return true;
  } catch {
    return false;
  }
}

/** The rotation, shared by every caller that asks while one is under way (single flight). */
export const refreshTokens = singleFlight(exchangeRefreshToken);

/** Off to /panel-login, saying why there. */
export function leaveForLogin(): void {
  clearTokens();
  queueToastForNextPage(translate("panel.sessionEnded"), "warning");
  location.assign("/panel-login");
}

function backToLogin(): never {
  leaveForLogin();
  throw new Error("redirecting to the panel login");
}

/**
 * Whether this browser holds an operator's sign-in at all. A page that would call nothing
 * without one (a customer page without a customer chosen) must still send a visitor to
 * /panel-login instead of showing the panel; the server judges the token on each call.
 */
export const hasOperatorSession = () => Boolean(readStorage(storageKeys.accessToken));

type Call<T> = (headers: {
  authorization: string;
}) => Promise<{ data: T | null; error: { status: unknown; value: unknown } | null }>;

/** The refusals of the access token itself (operator-auth.ts): a new one may get the call through. */
const sessionCodes: readonly ErrorCode[] = [
  "panel_sign_in_required",
  "panel_session_expired",
  "panel_session_closed",
  "operator_inactive",
];
const isSessionRefusal = (error: { value?: unknown } | null) => {
  const code = errorCode(error);
  return code !== undefined && sessionCodes.includes(code);
};
const needsEnrolment = (error: { value?: unknown } | null) =>
  errorCode(error) === "second_factor_enrolment_required";

/** The Security screen, where an operator who must have a second factor enrols one. */
export const securityPage = "/panel-security";

/**
 * An operator who must have a second factor and has none may only enrol one (DESIGN §12): the
 * server refuses every other panel call, and the browser goes to the Security screen.
 */
function toEnrolment(): never {
  location.assign(securityPage);
  throw new Error("redirecting to the second factor's enrolment");
}

/**
 * Every panel call: without an access token go to /panel-login; when the access token is
 * refused use the refresh token once to get a new one and retry; otherwise back to
 * /panel-login. Parallel calls refused so wait on one refresh; a call refused after another
 * call already refreshed just retries with the new token. A call refused until a second
 * factor is enrolled goes to the Security screen.
 */
export async function panelCall<T>(
  call: Call<T>,
): Promise<{ data: T | null; error: { status: unknown; value: unknown } | null }> {
  const accessToken = readStorage(storageKeys.accessToken);
  if (!accessToken) backToLogin();
  const first = await call({ authorization: `Bearer ${accessToken}` });
  if (needsEnrolment(first.error)) toEnrolment();
  if (!isSessionRefusal(first.error)) return first;
  const current = readStorage(storageKeys.accessToken);
  if (!current) backToLogin();
  if (current === accessToken && !(await refreshTokens())) backToLogin();
  const retried = await call({ authorization: `Bearer ${readStorage(storageKeys.accessToken)}` });
  if (isSessionRefusal(retried.error)) backToLogin();
  if (needsEnrolment(retried.error)) toEnrolment();
  return retried;
}

export async function logoutOperator(): Promise<void> {
  const refreshToken = readStorage(storageKeys.refreshToken);
  if (refreshToken) await api.auth.logout.post({ refreshToken }).catch(() => undefined);
  clearTokens();
  location.assign("/panel-login");
}

/**
 * The customer the operator opened (spec §3 storage keys). Every tab shares them, so a
 * page never takes whom it shows or acts on from here: only a page opened without an id
 * starts from the stored id (customerFromUrl), and writes it into its address.
 */
export function selectPerson(person: { id: number; email: string; uid?: string }): void {
  writeStorage(storageKeys.selectedPerson, String(person.id));
  writeStorage(storageKeys.selectedPersonEmail, person.email);
  // A refund picks the account by this uid: never leave the previous customer's behind.
  if (person.uid) writeStorage(storageKeys.selectedPersonUid, person.uid);
  else removeStorage(storageKeys.selectedPersonUid);
}

export function selectedPersonId(): number | undefined {
  return toCustomerId(readStorage(storageKeys.selectedPerson));
}

function toCustomerId(value: string | null | undefined): number | undefined {
  if (!value || !/^\d{1,15}$/.test(value)) return undefined;
  const id = Number(value);
  return id > 0 ? id : undefined;
}

export type CustomerChoice = { id: number } | { problem: "missing" | "invalid" };

/**
 * The customer a per-customer page shows: the URL's `id` rules. Without one, the last
 * choice stored in this browser is used and written into the address, so the page
 * can be copied or opened in a new tab.
 */
export function customerFromUrl(): CustomerChoice {
  const url = new URL(location.href);
  const raw = url.searchParams.get("id");
  if (raw !== null) {
    const id = toCustomerId(raw.trim());
    return id ? { id } : { problem: "invalid" };
  }
  const stored = selectedPersonId();
  if (!stored) return { problem: "missing" };
  url.searchParams.set("id", String(stored));
  history.replaceState(history.state, "", url);
  return { id: stored };
}

let choice: CustomerChoice | undefined;
/** Read once per page view: the URL's id (or the stored last choice, written into the URL). */
export function currentCustomer(): CustomerChoice {
  choice ??= customerFromUrl();
  return choice;
}

/** The address of a per-customer page. */
export const customerHref = (page: string, id: number) => `/${page}?id=${id}`;

/** The access token's claims as this browser holds them: read, never trusted. */
function tokenClaims(): { sub?: unknown; role?: unknown } | undefined {
  const payload = readStorage(storageKeys.accessToken)?.split(".")[1];
  if (!payload) return undefined;
  try {
    return JSON.parse(atob(payload.replace(/-/g, "+").replace(/_/g, "/"))) as {
      sub?: unknown;
      role?: unknown;
    };
  } catch {
    return undefined;
  }
}

/**
 * The signed-in operator's id, the access token's subject. Only to leave out the controls
 * the server refuses on one's own account; the server decides every call by itself.
 */
export function signedInOperatorId(): number | undefined {
  const id = Number(tokenClaims()?.sub);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

/**
 * Whether the signed-in operator is support staff, by the access token's role. Only to
 * leave administrators' sections out of the navigation; the server refuses them anyway.
 */
export const isSupportOperator = () => tokenClaims()?.role === "support";
