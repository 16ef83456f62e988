import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import type { Result } from 'axe-core';

/**
 * Rules axe-core keeps off by default that the app holds itself to: a control's accessible name holds
 * the words and key hints it shows (WCAG 2.5.3, label in name).
 */
const experimentalRules = { 'label-content-name-mismatch': { enabled: true } };

/**
 * Rules that count at any impact, besides every serious or critical finding: content outside the
 * page's landmarks (a screen reader's way around), and a role an element may not take.
 */
const alwaysCounted = new Set(['region', 'aria-allowed-role']);

/**
 * axe-core's verdict on what the page shows now, light and dark: no serious or critical problem, and
 * none of {@link alwaysCounted}. Every rule axe runs by default is run (WCAG 2.x A and AA, and its best
 * practices), with {@link experimentalRules}. A finding names its rule, the elements and, for
 * contrast, the colours and the ratio axe measured.
 */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  const found: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    // The change reaches script (the diff editor's theme) through a media query listener; let it land.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const { violations } = await new AxeBuilder({ page }).options({ rules: experimentalRules }).analyze();
    for (const violation of violations.filter(counts)) found.push(describe(violation, scheme));
  }
  await page.emulateMedia({ colorScheme: 'light' });
  // Soft: a journey through several screens reports every screen's findings in one run.
  expect.soft(found, `${screen}: axe-core found problems`).toEqual([]);
}

function counts(violation: Result): boolean {
  return violation.impact === 'serious' || violation.impact === 'critical' || alwaysCounted.has(violation.id);
}

function describe(violation: Result, scheme: string): string {
  const nodes = violation.nodes.map((node) => {
    const detail = node.any[0]?.message ?? node.all[0]?.message ?? node.none[0]?.message ?? node.failureSummary ?? '';
    return `    ${node.target.join(' ')}: ${detail.split('\n')[0]}`;
  });
  return `[${scheme}] ${violation.id} (${violation.impact}): ${violation.help}\n${nodes.join('\n')}`;
}
