import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium, unless TETHER_CHROMIUM names another. */
export const CHROMIUM = process.env.TETHER_CHROMIUM ?? '/usr/bin/chromium';

/** Headless Chromium as the renderer benchmarks run it: no sandbox or GPU here, and nothing of its own on the network. */
export function launchBenchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
}
