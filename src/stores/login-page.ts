import { atom } from "nanostores";
import { api } from "../lib/api-client";
import { rememberOfferLinkVisit } from "../lib/consent-skip";
import { normalizeLoginQuery, safeNextPath } from "../lib/login-query";
import { $email, $period, $promo, $rawPeriod, $rawTariff, $tariff, $uid } from "./customer";
import { rememberReturnPath } from "./sign-in-flow";

/** /login signs in and returns to `next`; /instantLogin binds a paid subscription to an account. */
export type LoginVariant = "login" | "instantLogin";

/** The sign-in buttons and where they lead, or a spinner while a session this browser may hold is checked. */
export type LoginPage = { isChecking: boolean; target: string };

export const $loginPage = atom<LoginPage | undefined>();

/**
 * The page before any answer: /login with a stored e-mail may already hold a session, so its
 * buttons wait for the check instead of showing and then vanishing.
 */
export function openingLoginPage(variant: LoginVariant): LoginPage {
  if (variant === "instantLogin") return { isChecking: false, target: "/profile" };
  return {
    isChecking: Boolean($email.get()),
    target: safeNextPath(new URLSearchParams(location.search).get("next")),
  };
}

/** /login's token, i and j (spec §5): the referral code, trial days and tariff the sign-up carries. */
function keepOfferChoices(search: string): void {
  const query = normalizeLoginQuery(search);
  if (query.token) $promo.set(query.token);
  if (query.rawPeriod !== null) $rawPeriod.set(query.rawPeriod);
  if (query.rawTariff !== null) $rawTariff.set(query.rawTariff);
  rememberOfferLinkVisit(query.rawPeriod !== null && query.rawTariff !== null);
  $period.set(String(query.period));
  // The stored tariff is also the plan the cabinet preselects (a price card's `j`).
  $tariff.set(String(query.tariff));
}

/** Whether this browser already holds a customer session; any failure counts as no. */
async function hasSession(): Promise<boolean> {
  try {
    const { data } = await api.profile.post({ email: $email.get(), uid: $uid.get() });
    return Boolean(data);
  } catch {
    return false;
  }
}

/** The page opens: a visitor of /login already signed in goes to `next` at once. */
export async function openLoginPage(variant: LoginVariant): Promise<void> {
  const page = openingLoginPage(variant);
  $loginPage.set(page);
  // A Yandex sign-in comes back through /yauth: it reads where to go from here.
  rememberReturnPath(variant === "login" ? page.target : null);
  if (variant !== "login") return;
  keepOfferChoices(location.search);
  if (!page.isChecking) return;
  if (await hasSession()) location.assign(page.target);
  else $loginPage.set({ ...page, isChecking: false });
}
