/** Where the system's Chromium is (override with CHROMIUM_PATH). */
export declare const chromiumPath: string;
/** Options for playwright-core's `chromium.launchPersistentContext(profileDir, options)`. */
export declare function chromiumLaunchOptions<Extra extends object = object>(
  extra?: Extra,
): { executablePath: string; headless: true; args: string[] } & Extra;
