import { expect, type Page } from '@playwright/test';

/**
 * Waits for every finite animation and transition on the page (a dialog's fade, a menu's slide) to
 * end, so colours and positions are measured as they stay. One in a part the browser does not lay
 * out yet (content-visibility: auto, far from the screen) does not run until that part comes near.
 */
export const animationsDone = (page: Page) =>
  page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getTiming().iterations !== Infinity)
        .filter((a) => {
          const target = a.effect instanceof KeyframeEffect ? a.effect.target : null;
          return !target || target.checkVisibility({ contentVisibilityAuto: true });
        })
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );

/** After a resize the charts measure themselves again (a ResizeObserver): the page settles, then must not scroll sideways. */
export async function noSidewaysScroll(page: Page) {
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  await expect.poll(overflow, { message: 'the page scrolls sideways' }).toBeLessThanOrEqual(0);
}

/**
 * A page the server drew (the overview, routing) takes no key or tap until the app has taken it
 * over: it stays inert until then. Keys do not wait by themselves as clicks do.
 */
export const takenOver = (page: Page) => expect(page.locator('#root')).not.toHaveAttribute('inert');

/**
 * Lays out the cards and sections a browser lays out only near the screen (.laid-out-near), as a
 * person scrolling sees each: a full-page picture, axe's colours and the sideways check then cover
 * the whole page, not its first screenful, and a part far below has its real place.
 */
export const layOutWhole = (page: Page) => page.addStyleTag({ content: '.laid-out-near { content-visibility: visible !important; }' });

/**
 * Waits for placeholders and loaders to go, so what is measured is the real content. A chart is
 * built once it is on screen (web/components/AfterDraw.tsx): each placeholder is scrolled to,
 * then the page goes back to its top. The whole page is laid out (layOutWhole).
 */
export async function settled(page: Page) {
  await layOutWhole(page);
  const skeletons = page.locator('.mantine-Skeleton-root');
  await expect(async () => {
    for (const s of await skeletons.all()) await s.scrollIntoViewIfNeeded({ timeout: 1000 }).catch(() => undefined);
    await expect(skeletons).toHaveCount(0, { timeout: 1000 });
  }).toPass();
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(page.locator('.mantine-Loader-root:visible')).toHaveCount(0);
  await animationsDone(page);
}
