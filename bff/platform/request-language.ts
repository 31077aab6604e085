import {
  detectLanguage,
  type Language,
  languageCookieName,
  parseAcceptLanguage,
  readCookie,
} from "../../core/languages";

/** The visitor's language from a request: the language cookie, then Accept-Language, then English. */
export function requestLanguage(request: Request): Language {
  return detectLanguage({
    cookie: readCookie(request.headers.get("cookie"), languageCookieName),
    browser: parseAcceptLanguage(request.headers.get("accept-language")),
  });
}

/** The stored language of the customer a request was authenticated as. */
const customerLanguages = new WeakMap<Request, Language>();

/** Customer authentication notes whose request this is, so refusals speak their language. */
export function rememberCustomerLanguage(request: Request, language: Language): void {
  customerLanguages.set(request, language);
}

/**
 * The language to answer a customer in (DESIGN §9): the signed-in customer's own, as
 * stored at registration; for an anonymous call, the visitor's from the request.
 */
export function customerLanguage(request: Request): Language {
  return customerLanguages.get(request) ?? requestLanguage(request);
}
