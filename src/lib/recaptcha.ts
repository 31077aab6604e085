type Grecaptcha = {
  render(
    element: HTMLElement,
    options: { sitekey: string; callback: (token: string) => void; "expired-callback": () => void },
  ): number;
};

let script: Promise<Grecaptcha> | undefined;

/** Google's reCAPTCHA v2 checkbox, used on the staff login when its keys are configured. */
export function renderRecaptcha(
  element: HTMLElement,
  siteKey: string,
  onToken: (token: string | undefined) => void,
): Promise<void> {
  script ??= new Promise((resolve, reject) => {
    const callbackName = "kanntRecaptchaReady";
    (window as unknown as Record<string, () => void>)[callbackName] = () =>
      resolve((window as unknown as { grecaptcha: Grecaptcha }).grecaptcha);
    const tag = document.createElement("script");
    tag.src = `https://www.google.com/recaptcha/api.js?onload=${callbackName}&render=explicit`;
    tag.async = true;
    tag.onerror = () => reject(new Error("reCAPTCHA did not load"));
    document.head.append(tag);
  });
  return script.then((grecaptcha) => {
    grecaptcha.render(element, {
      sitekey: siteKey,
      callback: (token) => onToken(token),
      "expired-callback": () => onToken(undefined),
    });
  });
}
