import { type AccountKey, isAnotherAccount } from "../lib/account-identity";
import { $email, $uid } from "./customer";

/** The account this browser holds now (spec storage keys `email` and `uid`). */
export const heldAccount = (): AccountKey => ({ email: $email.get(), uid: $uid.get() });

/**
 * Entry pages (/yauth, /yauth-mobile, /mobileShop, /mobileProfile) can be opened by
 * any link; one that arrives with another account must ask before replacing this one.
 */
export const mustAskBeforeSwitching = (arriving: AccountKey) => isAnotherAccount(heldAccount(), arriving);

/** "Keep the current account": nothing stored changes; back to its cabinet. */
export function keepCurrentAccount(): void {
  location.assign("/profile");
}
