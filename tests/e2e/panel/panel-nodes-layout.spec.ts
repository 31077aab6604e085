import { expect, type Page, test } from "@playwright/test";
import { layoutProblems } from "../../helpers/browser/layout";
import { signInToPanel, useLanguage } from "../../helpers/browser/pages";

/**
 * The Nodes screen with nodes as wide as real ones get: one that reported a long host, an
 * Xray version and four inbounds, one that never reported, one disabled. The table must
 * fit its region at every desktop width (the actions column was cut off: 1,163 px of table
 * in a 1,064 px region), and on a phone each node is a card that fits the window.
 */
const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const reported = `fi-hel-reality-edge-${suffix}`;
const silent = `nl-ams-standby-${suffix}`;
const disabled = `de-fra-retired-${suffix}`;

async function adminCall(page: Page, path: string, body: unknown): Promise<Record<string, unknown>> {
  return page.evaluate(
    async ({ path, body }) => {
      const response = await fetch(path, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          authorization: `Bearer ${localStorage.getItem("accessToken")}`,
        },
        body: JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
      return (await response.json()) as Record<string, unknown>;
    },
    { path, body },
  );
}

/** The node's agent reporting itself, as `POST /api/nodes/report` takes it. */
async function reportAsAgent(page: Page, key: string) {
  const status = await page.evaluate(
    async ({ key }) =>
      (
        await fetch("/api/nodes/report", {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
          body: JSON.stringify({
            core: "xray",
            coreVersion: "25.10.15",
            host: "fi-hel-reality-edge-01.vpn.kannt-example-operator.net",
            inbounds: [
              { tag: "kannt-reality", protocol: "vless", port: 443, network: "tcp", security: "reality" },
              { tag: "kannt-xhttp", protocol: "vless", port: 8443, network: "xhttp", security: "tls" },
              { tag: "kannt-grpc", protocol: "vless", port: 2053, network: "grpc", security: "tls" },
              { tag: "kannt-vmess", protocol: "vmess", port: 2083, network: "httpupgrade", security: "tls" },
            ],
            appliedVersion: 0,
            credentials: 123456,
            agentVersion: "1.0.0",
          }),
        })
      ).status,
    { key },
  );
  expect(status).toBe(200);
}

/** Table and region widths, and how far any cell reaches past the region's right edge. */
function measure(page: Page) {
  return page.evaluate(() => {
    const table = document.querySelector<HTMLElement>("table.panel-nodes");
    const region = table?.closest<HTMLElement>(".panel-scroll");
    if (!table || !region) throw new Error("no Nodes table in a scroll region");
    const right = region.getBoundingClientRect().right;
    const cells = [...table.querySelectorAll<HTMLElement>("th, td")].filter((cell) => cell.checkVisibility());
    return {
      table: Math.ceil(table.getBoundingClientRect().width),
      region: Math.floor(region.clientWidth),
      scrolls: region.scrollWidth > region.clientWidth + 1,
      overhang: Math.max(0, ...cells.map((cell) => Math.ceil(cell.getBoundingClientRect().right - right))),
    };
  });
}

test("the Nodes table fits its region at 1280, 1440 and 1920 px and is one card per node on a phone, in every language", async ({
  page,
}) => {
  // A captcha sign-in, then four languages at four widths, on two cores shared with others.
  test.setTimeout(180_000);
  await useLanguage(page, "en");
  await page.setViewportSize({ width: 1440, height: 900 });
  await signInToPanel(page);
  await page.waitForURL("**/panel-search");

  const made = await adminCall(page, "/api/panel/nodes", { name: reported });
  await reportAsAgent(page, String(made.key));
  await adminCall(page, "/api/panel/nodes", { name: silent });
  const gone = (await adminCall(page, "/api/panel/nodes", { name: disabled })) as { node: { id: number } };
  await adminCall(page, `/api/panel/nodes/${gone.node.id}/disable`, {});

  await page.goto("/panel-nodes");
  for (const language of ["ru", "en", "zh", "kk"]) {
    await page.evaluate((lang) => localStorage.setItem("i18nextLng", lang), language);
    for (const width of [1280, 1440, 1920, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.reload();
      const row = page.locator(".panel-nodes__row").filter({ hasText: reported });
      await expect(row).toBeVisible();
      await expect(row).toContainText("25.10.15");
      await expect(page.locator(".panel-nodes__row").filter({ hasText: disabled })).toBeVisible();
      const where = `${language} at ${width} px`;
      const size = await measure(page);
      expect(
        size.table,
        `${where}: table ${size.table} px in a ${size.region} px region`,
      ).toBeLessThanOrEqual(size.region);
      expect(size.scrolls, where).toBe(false);
      expect(size.overhang, `${where}: a cell reaches past the region`).toBe(0);
      // The actions, the column that was cut off, are on screen in full.
      for (const button of await row.locator(".panel-nodes__actions button").all()) {
        const box = await button.boundingBox();
        expect(box && box.x + box.width <= width, `${where}: ${await button.textContent()}`).toBe(true);
      }
      expect(await layoutProblems(page), where).toEqual([]);
    }
  }
});
