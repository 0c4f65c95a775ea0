import type { Page } from '@playwright/test';

/** Waits for every finite animation and transition on the page (a dialog's fade, a menu's slide) to end, so colours and positions are measured as they stay. */
export const animationsDone = (page: Page) =>
  page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getTiming().iterations !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
