import type { Page } from "@playwright/test";

/**
 * Layout defects the issue names, as drawn now: a page wider than the window (sideways
 * scroll) and a button or button-like link whose label wraps onto a second line.
 */
export async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth + 1)
      found.push(`page scrolls sideways: ${root.scrollWidth} px wide in a ${root.clientWidth} px window`);
    const nameOf = (element: Element) =>
      `${element.tagName.toLowerCase()}${element.className ? `.${String(element.className).trim().split(/\s+/).join(".")}` : ""}`;
    for (const element of document.querySelectorAll("button, a.button, [role='button'], [role='tab']")) {
      if (!(element instanceof HTMLElement) || !element.checkVisibility()) continue;
      // The lines of the label's text only: a span around the text (a hold button's label) has
      // a box taller than its text, whose top would read as a second line.
      const lines = new Set<number>();
      const texts = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let text = texts.nextNode(); text; text = texts.nextNode()) {
        const range = document.createRange();
        range.selectNodeContents(text);
        for (const rect of range.getClientRects()) if (rect.width > 0) lines.add(Math.round(rect.top));
      }
      if (lines.size > 1)
        found.push(
          `label wraps (${lines.size} lines): ${nameOf(element)} "${(element.textContent ?? "").replace(/\s+/g, " ").trim()}"`,
        );
    }
    for (const element of document.querySelectorAll("body *")) {
      if (!(element instanceof HTMLElement) || element.children.length > 0 || !element.checkVisibility())
        continue;
      const box = element.getBoundingClientRect();
      if (box.width > 0 && box.right > root.clientWidth + 1)
        found.push(
          `sticks out of the window by ${Math.round(box.right - root.clientWidth)} px: ${nameOf(element)}`,
        );
    }
    return found.slice(0, 15);
  });
}
