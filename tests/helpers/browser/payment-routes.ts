import { expect, type Page } from "@playwright/test";

/** The demo's routes: every provider and method on, CloudPayments first. */
export const demoRoutes = [
  { provider: "cloudpayments", method: "card", enabled: true },
  { provider: "cloudpayments", method: "sbp", enabled: true },
  { provider: "yookassa", method: "card", enabled: true },
  { provider: "yookassa", method: "sbp", enabled: true },
];

/**
 * Puts the demo's routes back through the API, with the panel session of `page`: the
 * server is shared, and other tests buy through CloudPayments.
 */
export async function restoreDemoRoutes(page: Page) {
  const token = await page.evaluate(() => localStorage.getItem("accessToken"));
  const response = await page.request.put("/api/panel/payments/routes", {
    headers: { authorization: `Bearer ${token}` },
    data: { routes: demoRoutes },
  });
  expect(response.status(), await response.text()).toBe(200);
}
