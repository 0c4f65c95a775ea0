import type { Page } from '@playwright/test';

/** What is wrong with the layout as drawn: sideways scroll, buttons off the right edge, cut badges. */
export function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const root = document.scrollingElement!;
    if (root.scrollWidth > root.clientWidth) found.push(`the page scrolls sideways (${root.scrollWidth} > ${root.clientWidth})`);
    const shown = (el: Element) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && !el.closest('[inert], [aria-hidden="true"]') && getComputedStyle(el).visibility !== 'hidden';
    };
    const name = (el: Element) => (el.getAttribute('aria-label') || el.textContent || el.tagName).trim().slice(0, 60);
    const buttons = document.querySelectorAll('button, a.mantine-Button-root, [role="button"], .mantine-ActionIcon-root');
    for (const b of buttons) {
      if (!shown(b)) continue;
      const r = b.getBoundingClientRect();
      if (r.right > window.innerWidth + 0.5) found.push(`button "${name(b)}" ends at ${Math.round(r.right)} px, beyond ${window.innerWidth} px`);
    }
    for (const label of document.querySelectorAll('.mantine-Badge-label')) {
      if (!shown(label)) continue;
      if (label.scrollWidth > label.clientWidth) found.push(`badge "${name(label)}" is cut short (${label.scrollWidth} > ${label.clientWidth})`);
    }
    return found;
  });
}
