import type { Page } from "@playwright/test";

/**
 * Waits until the page shows what it holds now: its fonts loaded, its running transitions
 * and animations over (a spinner's endless one is left), and two frames drawn
 * after that, so layout, style and the islands' last render have reached the screen.
 * This replaces a fixed pause: it waits as long as the page needs, on a busy machine too.
 */
export async function drawn(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await document.fonts.ready;
    // Time-driven ones only: a scroll-driven animation (the landing's features) ends when
    // the page is scrolled past it, never by waiting.
    const finite = document
      .getAnimations()
      .filter(
        (animation) =>
          animation.timeline === document.timeline &&
          animation.playState === "running" &&
          animation.effect?.getComputedTiming().iterations !== Number.POSITIVE_INFINITY,
      );
    // A paused animation never finishes: two seconds is longer than any of the product's.
    const over = Promise.all(finite.map((animation) => animation.finished.catch(() => undefined)));
    await Promise.race([over, new Promise((resolve) => setTimeout(resolve, 2_000))]);
    for (let frame = 0; frame < 2; frame++) await new Promise((resolve) => requestAnimationFrame(resolve));
  });
}
