import {
  detectLanguage,
  type Language,
  languageCookieName,
  parseAcceptLanguage,
  readCookie,
} from "../../src/lib/i18n/languages";

/** The visitor's language from a request: the language cookie, then Accept-Language, then English. */
export function requestLanguage(request: Request): Language {
  return detectLanguage({
    cookie: readCookie(request.headers.get("cookie"), languageCookieName),
    browser: parseAcceptLanguage(request.headers.get("accept-language")),
  });
}
