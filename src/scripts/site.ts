import { copyrightYears } from "../../core/company";
import { detectLanguage, isLanguage, languageCookieName, readCookie } from "../../core/languages";
import { track } from "../lib/analytics";
import { persistLanguage, storedLanguage } from "../lib/i18n/persist-language";
import { readStorage, storageKeys } from "../lib/storage-keys";
import { supportLink } from "../lib/support-link";
import "./toasts";

/** Behaviour shared by every prerendered page: toasts, language choice, footer links. */

// Cache the detected language (local storage, then cookie, then browser) like i18next does.
persistLanguage(
  detectLanguage({
    stored: storedLanguage(),
    cookie: readCookie(document.cookie, languageCookieName),
    browser: navigator.languages,
  }),
);

for (const link of document.querySelectorAll<HTMLAnchorElement>("a[data-lang]")) {
  link.addEventListener("click", () => {
    const language = link.dataset.lang;
    if (isLanguage(language)) persistLanguage(language);
  });
}

for (const link of document.querySelectorAll<HTMLAnchorElement>("a[data-support-link]")) {
  link.href = supportLink(readStorage(storageKeys.email));
}

// Every way to reach support counts as one go_support (spec §3, DESIGN §16).
for (const link of document.querySelectorAll<HTMLAnchorElement>("a[data-support]")) {
  link.addEventListener("click", () => track("go_support"));
}

// The page carries its build year; a page built last year still shows this year.
const copyright = document.querySelector<HTMLElement>("[data-copyright]");
const builtYear = Number(copyright?.dataset.builtYear);
const thisYear = new Date().getFullYear();
if (copyright && thisYear > builtYear) {
  copyright.textContent = (copyright.textContent ?? "").replace(
    copyrightYears(builtYear),
    copyrightYears(thisYear),
  );
}
