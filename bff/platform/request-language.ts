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

/** The language a request's caller is known to read, when the request alone does not say it. */
const callerLanguages = new WeakMap<Request, Language>();

/** Customer authentication notes whose request this is, so refusals speak their language. */
export function rememberCustomerLanguage(request: Request, language: Language): void {
  callerLanguages.set(request, language);
}

/**
 * A caller that is a program (the payment gateway, a node agent, a client of the sandbox's
 * gateway API) reads English whatever its headers say: its refusals go to logs and to the
 * people who read those.
 */
export function answerInEnglish(request: Request): void {
  callerLanguages.set(request, "en");
}

/**
 * The language to answer a caller in (DESIGN §9): a signed-in customer's own, as stored at
 * registration; a program's English; anyone else's (an anonymous visitor, an operator) from
 * the request.
 */
export function callerLanguage(request: Request): Language {
  return callerLanguages.get(request) ?? requestLanguage(request);
}
