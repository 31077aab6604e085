import {
  type AccountKey,
  type EntryQuestion,
  entryQuestion,
  isAnotherAccount,
} from "../lib/account-identity";
import { isInsideNativeApp } from "../lib/native-app";
import { $email, $uid } from "./customer";

/** The account this browser holds now (spec storage keys `email` and `uid`). */
export const heldAccount = (): AccountKey => ({ email: $email.get(), uid: $uid.get() });

/**
 * Entry pages (/yauth, /yauth-mobile, /mobileShop, /mobileProfile) can be opened by
 * any link; one that arrives with another account must ask before replacing this one.
 */
export const mustAskBeforeSwitching = (arriving: AccountKey) => isAnotherAccount(heldAccount(), arriving);

/**
 * /mobileShop and /mobileProfile: what to ask before the arriving account is signed in,
 * "switch" or "continue as", or nothing (inside the native app, recognised by its bridge).
 */
export const entryQuestionFor = (arriving: AccountKey, hasCredential: boolean): EntryQuestion =>
  entryQuestion(heldAccount(), arriving, { hasCredential, isNativeApp: isInsideNativeApp() });

/**
 * "Not me" to a link's account: nothing is stored or sent, and the page is left without
 * keeping its address (and the credential in it) in the history.
 */
export function declineArrivingAccount(): void {
  location.replace("/");
}

/** "Keep the current account": nothing stored changes; back to its cabinet. */
export function keepCurrentAccount(): void {
  location.assign("/profile");
}
