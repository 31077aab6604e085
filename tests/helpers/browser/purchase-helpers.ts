import { expect, type Page } from "@playwright/test";
import { payInWidget } from "./pages";
import { panelAdminTokens } from "./panel-admin";

const dayMs = 24 * 60 * 60 * 1000;

/** The time zone the purchase tests' browsers run in; expected dates are written in it too. */
export const testTimeZone = "Europe/Moscow";

/** The server's clock (it starts trials and takes charges), from GET /api/health. */
export async function serverTime(page: Page): Promise<number> {
  const response = await page.request.get("/api/health");
  const { time } = (await response.json()) as { time: string };
  return Date.parse(time);
}

/** A date as a reader of `language` expects it, `days` after the server's now. */
export async function dateAfter(page: Page, days: number, language: string): Promise<string> {
  const time = (await serverTime(page)) + days * dayMs;
  return new Intl.DateTimeFormat(language, {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: testTimeZone,
  }).format(new Date(time));
}

/** Calendar months later in UTC, clamped to the month's end (31 Jan + 1 month = 28/29 Feb). */
export async function dateAfterMonths(page: Page, months: number, language: string): Promise<string> {
  const date = new Date(await serverTime(page));
  const day = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, lastDay));
  return new Intl.DateTimeFormat(language, {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: testTimeZone,
  }).format(date);
}

/**
 * A pattern for `text` where any run of spaces matches any spaces: dates are kept on one
 * line with no-break spaces, which a pattern (unlike a plain expected string) does not fold.
 */
export function spacing(text: string): RegExp {
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(escaped.replace(/\s+/g, "\\s+"));
}

/** An administrator's refund through the panel's API: the trial payment goes back, access ends. */
export async function refundThroughPanel(page: Page, email: string) {
  const { accessToken } = await panelAdminTokens();
  const uid = await page.evaluate(() => localStorage.getItem("uid"));
  const refund = await page.request.post("/api/panel/refund", {
    data: { email, uid },
    headers: { authorization: `Bearer ${accessToken}` },
  });
  expect(((await refund.json()) as { Success: boolean }).Success, "refund").toBe(true);
}

/** Pays the 1-unit trial from the cabinet with the card that succeeds. */
export async function payTrialInCabinet(page: Page) {
  await page.getByRole("checkbox", { name: /automatically until I cancel/ }).check();
  await page.getByRole("checkbox", { name: /public offer/ }).check();
  await page.getByRole("button", { name: "Pay 1 ₽" }).click();
  await payInWidget(page, "4242 4242 4242 4242");
  await expect(page.getByTestId("status-dot")).toHaveAttribute("data-status", "green");
}
