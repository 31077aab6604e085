import { readStorage, sessionKeys, storageKeys } from "./storage-keys";

/**
 * Spec §5: the Buy button needs both consent boxes "unless i and j were set". `i` and `j`
 * stay in local storage for good (they end every payment id), so on their own they would
 * waive the consents on every later visit too. The waiver is tied to the visit instead:
 * /login opened with both i and j marks this tab's sessionStorage, which a new tab, a new
 * browser session or a sign-out does not carry.
 */
export function rememberOfferLinkVisit(hasOfferLink: boolean): void {
  try {
    if (hasOfferLink) sessionStorage.setItem(sessionKeys.offerLinkVisit, "1");
    else sessionStorage.removeItem(sessionKeys.offerLinkVisit);
  } catch {
    // Without sessionStorage the consents are simply asked for.
  }
}

export function forgetOfferLinkVisit(): void {
  rememberOfferLinkVisit(false);
}

/** Whether this visit came with i and j, so the consent boxes may be skipped. */
export function isConsentSkippedThisVisit(): boolean {
  let isMarked = false;
  try {
    isMarked = sessionStorage.getItem(sessionKeys.offerLinkVisit) === "1";
  } catch {
    return false;
  }
  return (
    isMarked && readStorage(storageKeys.rawPeriod) !== null && readStorage(storageKeys.rawTariff) !== null
  );
}
