import { expect, type Locator, type Page } from "@playwright/test";

/** The switcher order of headers and footers (spec §2's footer order). */
export const switcherOrder = ["RU", "EN", "KK", "ZH"];

/** Nothing on the page is wider than the window: no sideways scroll. */
export async function expectNoSidewaysScroll(page: Page, where: string) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, `${where} scrolls sideways`).toBeLessThanOrEqual(innerWidth);
}

/** Every item of the switcher sits on the same row, in the spec's order, the active one marked. */
export async function expectSwitcherOnOneRow(switcher: Locator, active: string, where: string) {
  const items = switcher.locator(".languages__link");
  await expect(items).toHaveText(switcherOrder);
  const tops = await items.evaluateAll((elements) =>
    elements.map((element) => Math.round(element.getBoundingClientRect().top)),
  );
  expect(new Set(tops).size, `${where}: switcher rows ${tops.join(",")}`).toBe(1);
  await expect(switcher.locator('[aria-current="true"]')).toHaveText(active.toUpperCase());
  await expect(switcher.locator('[aria-current="true"]')).toHaveCount(1);
}

/** Each text run inside the matched elements is laid out on a single line. */
export async function expectLabelsOnOneLine(elements: Locator, where: string) {
  const wrapped = await elements.evaluateAll((nodes) =>
    nodes.flatMap((node) => {
      if (!(node as HTMLElement).offsetParent) return [];
      const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
      const found: string[] = [];
      for (let text = walker.nextNode(); text; text = walker.nextNode()) {
        if (!text.textContent?.trim()) continue;
        const range = document.createRange();
        range.selectNodeContents(text);
        const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
        if (lines.size > 1) found.push(text.textContent.trim());
      }
      return found;
    }),
  );
  expect(wrapped, `${where}: wrapped labels`).toEqual([]);
}
