import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * Axe on the page as it stands. Legacy mode runs axe.run in the page itself; the default builds
 * the report in a new blank page, injecting axe a second time, which costs about a second a scan
 * here. The portal has no frames from other origins, the one thing only the default mode scans.
 */
export const axe = (page: Page) => new AxeBuilder({ page }).setLegacyMode();
