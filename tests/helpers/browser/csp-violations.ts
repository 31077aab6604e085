import type { BrowserContext } from "@playwright/test";

/**
 * The Content-Security-Policy violations the context's pages meet, as reported by their
 * `securitypolicyviolation` events and console lines: gives the list it fills.
 */
export async function recordCspViolations(context: BrowserContext): Promise<string[]> {
  const violations: string[] = [];
  await context.exposeFunction("reportCspViolation", (text: string) => violations.push(text));
  await context.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      const report = (window as unknown as { reportCspViolation(text: string): void }).reportCspViolation;
      report(`${location.pathname}: ${event.effectiveDirective} refused ${event.blockedURI || "inline"}`);
    });
  });
  context.on("console", (message) => {
    if (/Content.Security.Policy/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}
