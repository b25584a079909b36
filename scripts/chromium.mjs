// How every browser test launches Chromium: the system's own (Debian's package, installed by
// scripts/services.sh; no browser download), headless, as root-safe and as quiet on the
// network as it can be — without the background-networking flags Chromium keeps trying to
// reach Google's hosts, which this machine's closed network refuses.

/** Where the system's Chromium is (override with CHROMIUM_PATH). */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Options for playwright-core's `chromium.launchPersistentContext(profileDir, options)`; give
 * each test run a fresh `profileDir`. `extra` adds context options (e.g. a viewport).
 *
 * @param {Record<string, unknown>} [extra]
 */
export function chromiumLaunchOptions(extra = {}) {
  return {
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    ...extra,
  };
}
