// Debian's chromium for the HTML report's browser tests: whether it is here (and required, in CI),
// how it is launched (headless, no background traffic), and what a page did that a report must
// never make it do (requests, console errors and warnings, page errors, dialogs).
import { existsSync } from 'node:fs';
import { expect } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const requireChromium = process.env.GWC_REQUIRE_CHROMIUM === '1';
export const hasChromium = existsSync(CHROMIUM);

export async function launchChromium(): Promise<Browser> {
  if (!hasChromium) expect.fail(`chromium is required: apt-get install chromium (GWC_REQUIRE_CHROMIUM=1 is set and ${CHROMIUM} is missing)`);
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--headless'], timeout: 30_000 });
}

/** Records the page's requests (or its context's, to see those of every page it opens), console errors and warnings, page errors and dialogs (each dismissed). */
export function watchPage(page: Page, requestsOf: Page | BrowserContext = page): { requests: string[]; errors: string[]; dialogs: string[] } {
  const seen = { requests: [] as string[], errors: [] as string[], dialogs: [] as string[] };
  requestsOf.on('request', (r) => seen.requests.push(r.url()));
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') seen.errors.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => seen.errors.push(`pageerror: ${e.message}`));
  page.on('dialog', (d) => {
    seen.dialogs.push(d.message());
    void d.dismiss();
  });
  return seen;
}
