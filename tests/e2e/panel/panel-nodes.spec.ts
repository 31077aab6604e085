import { expect, type Page, test } from "@playwright/test";
import { blockingAtBothWidths, describeFinding } from "../../helpers/browser/axe";
import { layoutProblems } from "../../helpers/browser/layout";
import {
  holdButton,
  openPanelSection,
  signInThroughPanelForm,
  signInToPanel,
  useLanguage,
} from "../../helpers/browser/pages";

/** A node name no other test uses. */
const uniqueNodeName = () => `e2e-node-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/** One node's row (a card on a phone), found by its name. */
const nodeRow = (page: Page, name: string) =>
  page.locator(".panel-nodes__row").filter({ has: page.getByText(name, { exact: true }) });

/** The key shown once: read, then dismissed, after which it is nowhere on the page. */
async function takeOnceKey(page: Page, name: string): Promise<string> {
  const box = page.getByRole("region", { name: `Key for node ${name}` });
  await expect(box).toContainText("it will not be shown again");
  const key = await box.getByLabel("Node key (NODE_KEY)").inputValue();
  expect(key).toMatch(/^node_\S{20,}$/);
  await box.getByRole("button", { name: "Done, hide it" }).click();
  await expect(box).toHaveCount(0);
  await expect(page.locator(`input[value="${key}"]`)).toHaveCount(0);
  return key;
}

async function signInAdminToNodes(page: Page) {
  await openPanelSection(page, "Nodes", "panel-nodes");
  await expect(page.getByRole("heading", { name: "VPN nodes", level: 1 })).toBeVisible();
}

test.describe("VPN nodes in the panel", () => {
  test.beforeEach(async ({ page }) => {
    await useLanguage(page, "en");
  });

  test("an administrator adds a node, sees its key once, finds it offline, rotates the key and disables it", async ({
    page,
    context,
  }) => {
    // A captcha sign-in and two 2-second holds, on two cores shared with another worker.
    test.setTimeout(180_000);
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.setViewportSize({ width: 1440, height: 900 });
    await signInAdminToNodes(page);

    const name = uniqueNodeName();
    const form = page.getByRole("region", { name: "Add a node" });
    await form.getByLabel("Node name").fill("bad name!");
    await form.getByRole("button", { name: "Add node" }).click();
    await expect(form.getByRole("alert")).toContainText("Check the name");
    await expect(page.getByRole("region", { name: /^Key for node/ })).toHaveCount(0);

    await form.getByLabel("Node name").fill(name);
    await form.getByRole("button", { name: "Add node" }).click();
    await expect(page.getByRole("status").filter({ hasText: `Node ${name} added.` })).toBeVisible();
    await expect(form.getByRole("alert")).toHaveCount(0);
    const box = page.getByRole("region", { name: `Key for node ${name}` });
    await box.getByRole("button", { name: "Copy" }).click();
    await expect(box.getByRole("status")).toHaveText("Copied.");
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(await box.getByLabel("Node key (NODE_KEY)").inputValue());
    const first = await takeOnceKey(page, name);

    // Listed, offline (its agent never called), never with its key; not shown again on a fresh look.
    await page.reload();
    const row = nodeRow(page, name);
    await expect(row).toContainText("Offline");
    await expect(row).toContainText("has not reported yet");
    await expect(row).toContainText("not reported");
    await expect(page.getByRole("region", { name: /^Key for node/ })).toHaveCount(0);
    await expect(page.locator("body")).not.toContainText(first);
    // The same name again, in any case, is refused with the server's words.
    await form.getByLabel("Node name").fill(name.toUpperCase());
    await form.getByRole("button", { name: "Add node" }).click();
    await expect(form.getByRole("alert")).toContainText("A node with this name already exists.");
    await expect(form.getByRole("alert")).toContainText(`A node named "${name}" already exists`);

    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await expect(nodeRow(page, name)).toBeVisible();
      expect(await layoutProblems(page), `${width} px`).toEqual([]);
    }
    const findings = await blockingAtBothWidths(page);
    expect(findings.map(describeFinding)).toEqual([]);

    // A new key, shown once; the node's old key is refused from then on.
    await holdButton(page, nodeRow(page, name).getByRole("button", { name: "New key" }));
    await expect(page.getByRole("status").filter({ hasText: `New key for ${name}` })).toBeVisible();
    const second = await takeOnceKey(page, name);
    expect(second).not.toBe(first);

    // Disabled: said in its row, with the way back.
    await holdButton(page, nodeRow(page, name).getByRole("button", { name: "Disable" }));
    await expect(page.getByRole("status").filter({ hasText: `${name} is disabled` })).toBeVisible();
    await expect(nodeRow(page, name)).toContainText("Disabled");
    await expect(nodeRow(page, name).getByRole("button", { name: "Enable" })).toBeVisible();
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.reload();
    await expect(nodeRow(page, name)).toContainText("Disabled");
    expect(await layoutProblems(page)).toEqual([]);

    // The sections, Nodes, Payments and Security among them, keep to two rows on a phone in every language.
    await page.setViewportSize({ width: 390, height: 844 });
    for (const language of ["ru", "en", "zh", "kk"]) {
      await page.evaluate((lang) => localStorage.setItem("i18nextLng", lang), language);
      await page.reload();
      const links = page.locator(".panel-nav a");
      await expect(links).toHaveCount(8);
      const tops = await links.evaluateAll((all) =>
        all.map((link) => Math.round(link.getBoundingClientRect().top)),
      );
      expect(new Set(tops).size, `${language}: ${tops.join(", ")}`).toBeLessThanOrEqual(2);
    }
    await page.evaluate(() => localStorage.setItem("i18nextLng", "en"));
    await page.setViewportSize({ width: 1440, height: 900 });

    // Each change reads as a sentence in the audit log.
    await page.goto("/panel-audit");
    for (const sentence of [`added node ${name}`, `made a new key for node ${name}`, `disabled node ${name}`])
      await expect(page.getByText(sentence)).toBeVisible();
  });

  test("support staff have no Nodes or Payments section and are told the screens are for administrators", async ({
    page,
    browser,
  }, testInfo) => {
    test.setTimeout(120_000);
    await signInToPanel(page);
    await page.waitForURL("**/panel-search");
    // A support operator made through the staff API, signed in elsewhere.
    const username = `e2e.nodes.${Date.now().toString(36)}`;
    const password = "a support password here";
    const made = await page.evaluate(
      async ({ username, password }) =>
        (
          await fetch("/api/panel/operators", {
            method: "POST",
            headers: {
              "content-type": "application/json",
              authorization: `Bearer ${localStorage.getItem("accessToken")}`,
            },
            body: JSON.stringify({ username, password, role: "support" }),
          })
        ).status,
      { username, password },
    );
    expect(made).toBe(200);
    const other = await (await browser.newContext({ baseURL: testInfo.project.use.baseURL })).newPage();
    await useLanguage(other, "en");
    await signInThroughPanelForm(other, { username, password });
    await other.waitForURL("**/panel-search");
    const sections = other.getByRole("navigation", { name: "Panel sections" });
    await expect(sections.getByRole("link", { name: "Users" })).toBeVisible();
    await expect(sections.getByRole("link", { name: "Nodes" })).toHaveCount(0);
    await other.goto("/panel-nodes");
    await expect(other.getByRole("alert")).toHaveText("This section is for administrators only.");
    await expect(other.getByRole("button", { name: "Add node" })).toHaveCount(0);
    // Nor the payment routes, which are the administrators' too.
    await expect(sections.getByRole("link", { name: "Payments" })).toHaveCount(0);
    await other.goto("/panel-payments");
    await expect(other.getByRole("alert")).toHaveText("This section is for administrators only.");
    await expect(other.getByRole("switch")).toHaveCount(0);
    await other.context().close();
  });
});

test.describe("what the Nodes screen says of a node's agent and core", () => {
  test.beforeEach(async ({ page }) => {
    await useLanguage(page, "en");
  });

  test("core down, never connected, an old key still in use and a refused second agent each read in the node's row", async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 1440, height: 900 });
    await signInAdminToNodes(page);
    // Nodes and their agents' calls through the API, as the panel and the agents make them.
    const call = (path: string, body: unknown, headers: Record<string, string>) =>
      page.evaluate(
        async ({ path, body, headers }) =>
          (
            await fetch(path, {
              method: "POST",
              headers: { "content-type": "application/json", ...headers },
              body: JSON.stringify(body),
            })
          ).status,
        { path, body, headers },
      );
    const addNode = (name: string) =>
      page.evaluate(async (name) => {
        const response = await fetch("/api/panel/nodes", {
          method: "POST",
          headers: {
            "content-type": "application/json",
            authorization: `Bearer ${localStorage.getItem("accessToken")}`,
          },
          body: JSON.stringify({ name }),
        });
        return (await response.json()) as { node: { id: number }; key: string };
      }, name);
    const report = {
      core: "xray",
      coreVersion: "25.6.8",
      host: "vpn.example.net",
      inbounds: [],
      appliedVersion: 0,
      credentials: 3,
    };
    const agent = (key: string, instance: string) => ({
      authorization: `Bearer ${key}`,
      "x-agent-instance": instance,
    });
    const first = "6f1d4c2e-3b5a-4e8f-9c7d-0a1b2c3d4e5f";
    const second = "0b9e8d7c-6a5f-4e3d-8c2b-1a0f9e8d7c6b";

    const downName = uniqueNodeName();
    const down = await addNode(downName);
    expect(await call("/api/nodes/report", { ...report, coreState: "down" }, agent(down.key, first))).toBe(
      200,
    );
    // A second agent with the same key is refused, and noted.
    expect(await call("/api/nodes/report", report, agent(down.key, second))).toBe(409);
    const silentName = uniqueNodeName();
    await addNode(silentName);
    const rekeyedName = uniqueNodeName();
    const rekeyed = await addNode(rekeyedName);
    await page.reload();
    await holdButton(page, nodeRow(page, rekeyedName).getByRole("button", { name: "New key" }));
    await takeOnceKey(page, rekeyedName);
    expect(await call("/api/nodes/report", report, agent(rekeyed.key, first))).toBe(401);
    // Heard from within the 30 s a node counts as online, however long the steps above took.
    const reportDown = () =>
      call("/api/nodes/report", { ...report, coreState: "down" }, agent(down.key, first));
    expect(await reportDown()).toBe(200);

    await page.reload();
    const downRow = nodeRow(page, downName);
    await expect(downRow).toContainText("Core down");
    await expect(downRow).toContainText("its agent reports that the core does not answer");
    await expect(downRow).not.toContainText("Online");
    await expect(downRow).toContainText("out of sync");
    await expect(downRow).toContainText(/A second agent with this key was refused, last at .+ from \S+\./);
    const silentRow = nodeRow(page, silentName);
    await expect(silentRow).toContainText("never connected");
    await expect(silentRow).not.toContainText(" min");
    await expect(nodeRow(page, rekeyedName)).toContainText(/An agent still uses the old key, last at .+\./);

    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await expect(downRow).toBeVisible();
      expect(await layoutProblems(page), `${width} px`).toEqual([]);
    }
    const findings = await blockingAtBothWidths(page);
    expect(findings.map(describeFinding)).toEqual([]);
    // Every language has its words for them, at a phone's width too.
    for (const [language, coreDown] of [
      ["ru", "Ядро не работает"],
      ["zh", "核心已停止"],
      ["kk", "Ядро жұмыс істемейді"],
    ] as const) {
      // Its agent reports again, as a live one does each minute: on a busy machine this test
      // outlasts the window in which a node counts as online, and an old report reads "offline".
      expect(await reportDown()).toBe(200);
      await page.evaluate((lang) => localStorage.setItem("i18nextLng", lang), language);
      await page.reload();
      await expect(nodeRow(page, downName)).toContainText(coreDown);
      expect(await layoutProblems(page), language).toEqual([]);
    }
    await page.evaluate(() => localStorage.setItem("i18nextLng", "en"));
  });
});
