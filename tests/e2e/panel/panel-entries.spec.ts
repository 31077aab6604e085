import { expect, type Page, test } from "@playwright/test";
import { blockingAtBothWidths, describeFinding } from "../../helpers/browser/axe";
import { layoutProblems } from "../../helpers/browser/layout";
import { signInToPanel, useLanguage } from "../../helpers/browser/pages";
import { textsOf, untranslatedProblems } from "../../helpers/browser/untranslated";

/**
 * The Nodes screen's published entries and probe agents (DESIGN §8), driven as an
 * administrator would: a probe added with its key shown once, a node's entries seeded by
 * its agent's first report, one edited, every REALITY entry switched from chrome to firefox
 * in one action, one switched off and one moved.
 */
const suffix = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/** A call of the panel's API with the signed-in operator's token, or an agent's call with its key. */
async function call(page: Page, path: string, body: unknown, key?: string): Promise<Record<string, unknown>> {
  return page.evaluate(
    async ({ path, body, key }) => {
      const response = await fetch(path, {
        method: body === undefined ? "GET" : "POST",
        headers: {
          "content-type": "application/json",
          authorization: `Bearer ${key ?? localStorage.getItem("accessToken")}`,
          // One agent instance per key, as a running agent names itself.
          ...(key ? { "x-agent-instance": "6f1d4c2e-3b5a-4e8f-9c7d-0a1b2c3d4e5f" } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
      return (await response.json()) as Record<string, unknown>;
    },
    { path, body, key },
  );
}

const reality = {
  protocol: "vless",
  network: "tcp",
  security: "reality",
  flow: "xtls-rprx-vision",
  fingerprint: "chrome",
  publicKey: "Z84J2IelR9ch3k8VtlVhhs5ycBUlXA7wHBWcBrjqnAw",
  shortId: "6ba85179e30d4fc2",
};

/** A node whose agent reported two REALITY inbounds on chrome and an XHTTP one over TLS, also on chrome. */
async function seedNode(page: Page, name: string) {
  const made = (await call(page, "/api/panel/nodes", { name })) as { key: string };
  // Synced as a running agent is: the allow-list's version, fetched first. A node still at 0
  // counts as out of step once the suite's first change is 5 minutes old (entry-health.ts).
  const { version } = (await call(page, "/api/nodes/allowlist", undefined, made.key)) as { version: number };
  await call(
    page,
    "/api/nodes/report",
    {
      core: "xray",
      coreVersion: "25.10.15",
      host: "nl1.e2e-entries.example.net",
      inbounds: [
        { tag: "kannt-reality", port: 443, sni: "www.example.com", ...reality },
        // A Russian camouflage name: the panel warns of it.
        { tag: "kannt-reality-ru", port: 8443, sni: "www.yandex.ru", ...reality },
        {
          tag: "kannt-xhttp",
          protocol: "vless",
          port: 2053,
          network: "xhttp",
          security: "tls",
          sni: "cdn.example.net",
          fingerprint: "chrome",
          path: "/x",
        },
      ],
      appliedVersion: version,
      credentials: 0,
    },
    made.key,
  );
}

/** The node's entries as the panel lists them, by inbound tag. */
async function entryIds(page: Page, node: string): Promise<Record<string, number>> {
  const { entries } = (await call(page, "/api/panel/entries", undefined)) as {
    entries: { id: number; nodeName: string; inboundTag: string }[];
  };
  return Object.fromEntries(
    entries.filter((entry) => entry.nodeName === node).map((entry) => [entry.inboundTag, entry.id]),
  );
}

/** One entry's card, by its node and inbound. */
const entryCard = (page: Page, node: string, tag: string) =>
  page.locator(".panel-entries__item").filter({ has: page.getByText(`${node} · ${tag}`, { exact: true }) });

const screenshot = (page: Page, name: string) =>
  page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });

test.describe("published entries and probes on the Nodes screen", () => {
  test.beforeEach(async ({ page }) => {
    await useLanguage(page, "en");
  });

  test("a probe's key is shown once; a node's entries are edited, switched to firefox all at once, switched off and moved", async ({
    page,
  }) => {
    // A captcha sign-in, then many steps, on two cores shared with other workers.
    test.setTimeout(180_000);
    await page.setViewportSize({ width: 1440, height: 900 });
    await signInToPanel(page);
    await page.waitForURL("**/panel-search");
    await page.goto("/panel-nodes");

    // A probe agent: its key once, with the command that starts it, then never again.
    const probeName = `ru-e2e-${suffix()}`;
    const probes = page.getByRole("region", { name: "Probes", exact: true });
    await probes.getByLabel("Probe name").fill(probeName);
    await probes.getByRole("button", { name: "Add probe" }).click();
    await expect(page.getByRole("status").filter({ hasText: `Probe ${probeName} added.` })).toBeVisible();
    const box = page.getByRole("region", { name: `Key for probe ${probeName}` });
    await expect(box).toContainText("it will not be shown again");
    const probeKey = await box.getByLabel("Probe key (PROBE_KEY)").inputValue();
    expect(probeKey.length).toBeGreaterThan(20);
    await expect(box).toContainText(`AGENT_MODE=probe KANNT_URL=http://localhost`);
    await expect(box).toContainText(`PROBE_KEY=${probeKey} CORE=xray CORE_BIN=/usr/local/bin/xray npm start`);
    await screenshot(page, "probe-key-once");
    await box.getByRole("button", { name: "Done, hide it" }).click();
    await expect(box).toHaveCount(0);
    await expect(page.locator("body")).not.toContainText(probeKey);
    await expect(probes.locator(".panel-probes__item").filter({ hasText: probeName })).toContainText(
      "has not reported yet",
    );

    // A node's agent reports three inbounds: each gets an entry. The probe finds one blocked.
    const node = `e2e-entries-${suffix()}`;
    await seedNode(page, node);
    const ids = await entryIds(page, node);
    expect(Object.keys(ids).sort()).toEqual(["kannt-reality", "kannt-reality-ru", "kannt-xhttp"]);
    for (let round = 0; round < 2; round++)
      await call(
        page,
        "/api/probes/results",
        { results: [{ entryId: ids["kannt-xhttp"], ok: false, error: "timed out after 10 s" }] },
        probeKey,
      );
    await page.reload();

    const first = entryCard(page, node, "kannt-reality");
    const russian = entryCard(page, node, "kannt-reality-ru");
    const blocked = entryCard(page, node, "kannt-xhttp");
    await expect(first).toContainText("nl1.e2e-entries.example.net:443");
    await expect(first).toContainText("VLESS tcp reality");
    await expect(first).toContainText("www.example.com");
    await expect(first).toContainText("chrome");
    await expect(first).toContainText("everyone");
    await expect(first.locator(".panel-entries__state")).toHaveText("In subscriptions");
    await expect(russian).toContainText("The camouflage site is Russian");
    await expect(blocked.locator(".panel-entries__state--failing")).toContainText(
      "Out: a probe cannot get through",
    );
    await expect(blocked).toContainText(`${probeName}: cannot get through since`);
    await expect(blocked).toContainText("timed out after 10 s");
    await screenshot(page, "entries-1440");

    // Its SNI edited: a bad one is refused with the server's words and the typed text kept.
    await first.getByRole("button", { name: "Edit" }).click();
    const sni = first.getByLabel("Server name (SNI)");
    await expect(sni).toHaveAttribute("placeholder", "www.example.com");
    await sni.fill("bad name!");
    await first.getByRole("button", { name: "Save" }).click();
    await expect(first.getByRole("alert")).toContainText("Check the entry's settings");
    await expect(first.getByRole("alert")).toContainText('"sni"');
    await expect(sni).toHaveValue("bad name!");
    await sni.fill("cdn.example.org");
    await first.getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Entry saved." })).toBeVisible();
    await expect(first.getByLabel("Server name (SNI)")).toHaveCount(0);
    await expect(first.locator(".panel-entries__facts")).toContainText("cdn.example.org");

    // Every REALITY entry on chrome, to firefox, in one action that names how many change.
    const many = page.getByRole("region", { name: "Change many at once" });
    await many.getByLabel("Security").selectOption("reality");
    await many.getByLabel("Current fingerprint").selectOption("chrome");
    await many.getByRole("button", { name: "Select matching" }).click();
    await expect(many.getByRole("status")).toHaveText("Selected: 2");
    await expect(first.getByRole("checkbox", { name: /^Select/ })).toBeChecked();
    await expect(blocked.getByRole("checkbox")).not.toBeChecked();
    await many.getByLabel("Change", { exact: true }).selectOption("fingerprint");
    await many.getByLabel("New fingerprint").selectOption("firefox");
    await many.getByRole("button", { name: "Apply to 2 entries" }).click();
    await expect(many.getByRole("group")).toContainText("Fingerprint → firefox: 2 entries will change.");
    await screenshot(page, "entries-confirm-many");
    await many.getByRole("button", { name: "Yes, change 2 entries" }).click();
    await expect(page.getByRole("status").filter({ hasText: "2 entries changed." })).toBeVisible();
    await expect(many.getByRole("status")).toHaveText("Selected: 0");
    await page.reload();
    for (const card of [first, russian])
      await expect(card.locator(".panel-entries__facts")).toContainText("firefox");
    await expect(blocked.locator(".panel-entries__facts")).toContainText("chrome");

    // One switched off: grey, out of subscriptions, with the way back.
    await first.getByRole("button", { name: "Switch off" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Entry switched off" })).toBeVisible();
    await expect(first.locator(".panel-entries__state--off")).toHaveText("Switched off");
    await expect(first.getByRole("button", { name: "Switch on" })).toBeVisible();

    // The blocked one moved above the Russian one: the whole order is sent and kept.
    const tags = () =>
      page
        .locator(".panel-entries__item .panel-entries__title .panel-nodes__detail")
        .filter({ hasText: node })
        .allTextContents();
    expect(await tags()).toEqual([
      `${node} · kannt-reality`,
      `${node} · kannt-reality-ru`,
      `${node} · kannt-xhttp`,
    ]);
    // (Whether it is last of all depends on other tests' nodes on the same server: not asserted.)
    await blocked.getByRole("button", { name: "Up" }).click();
    await expect
      .poll(tags)
      .toEqual([`${node} · kannt-reality`, `${node} · kannt-xhttp`, `${node} · kannt-reality-ru`]);
    await page.reload();
    await expect
      .poll(tags)
      .toEqual([`${node} · kannt-reality`, `${node} · kannt-xhttp`, `${node} · kannt-reality-ru`]);

    // A second entry for the XHTTP inbound, through a CDN: last in the order, the rest the inbound's.
    const entries = page.getByRole("region", { name: "Published entries" });
    await entries.getByRole("button", { name: "New entry" }).click();
    await entries.getByLabel("Node", { exact: true }).selectOption({ label: node });
    await entries.getByLabel("Inbound").selectOption("kannt-xhttp");
    await entries.getByLabel("Name in apps").fill("Mobile CDN");
    await entries.getByLabel("Address").fill("edge.cdn-e2e.example.org");
    await entries.getByRole("checkbox", { name: "3 months" }).check();
    await entries.getByRole("button", { name: "Add entry" }).click();
    await expect(page.getByRole("status").filter({ hasText: `Entry for ${node} added.` })).toBeVisible();
    const added = page.locator(".panel-entries__item").last();
    await expect(added).toContainText("Mobile CDN");
    await expect(added).toContainText(`${node} · kannt-xhttp`);
    await expect(added).toContainText("edge.cdn-e2e.example.org:2053");
    await expect(added).toContainText("cdn.example.net");
    await expect(added).toContainText("tariffs of 3 months");

    // It fits a phone and a wide screen, and reads in every language.
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await expect(first).toBeVisible();
      expect(await layoutProblems(page), `${width} px`).toEqual([]);
    }
    await screenshot(page, "entries-390");
    const findings = await blockingAtBothWidths(page);
    expect(findings.map(describeFinding)).toEqual([]);
    for (const [language, title] of [
      ["ru", "Записи подписок"],
      ["zh", "订阅条目"],
      ["kk", "Жазылым жазбалары"],
    ] as const) {
      await page.evaluate((lang) => localStorage.setItem("i18nextLng", lang), language);
      await page.reload();
      await expect(page.getByRole("heading", { name: title })).toBeVisible();
      await expect(first).toBeVisible();
      expect(await layoutProblems(page), language).toEqual([]);
      expect(untranslatedProblems(await textsOf(page), language), language).toEqual([]);
      await screenshot(page, `entries-390-${language}`);
    }
    await page.evaluate(() => localStorage.setItem("i18nextLng", "en"));
  });
});
