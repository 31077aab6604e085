import { detectLanguage, isLanguage, languageCookieName, readCookie } from "../lib/i18n/languages";
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
