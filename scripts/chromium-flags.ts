import { existsSync } from 'node:fs';

/**
 * How every headless Chromium here starts (Playwright, the bench's Lighthouse runs): no sandbox
 * (containers), no GPU, and none of the background traffic that would reach past loopback.
 */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Chromium 156's headless browser renders the omnibox's WebUI popup (the AI "composebox") in a
 * renderer of its own as it starts: ~0.5 s of CPU that, on 2 cores, landed inside the measured page
 * load and stretched the page's own tasks (Lighthouse times tasks by the wall clock). No page ever
 * sees it. Chromium keeps only the last `--disable-features`, so this list is merged with the
 * launcher's own (`lighthouseChromeFlags`).
 */
const BACKGROUND_UI_FEATURES = [
  'WebUIOmniboxPopup',
  'WebUIOmniboxFullPopup',
  'WebUIOmniboxAimPopup',
  'FullWebUIOmniboxFrame',
  'OmniboxEverywhereComposebox',
];

/** The flags for chrome-launcher: ours, with its default `--disable-features` list extended. */
export function lighthouseChromeFlags(launcherDefaults: string[]): string[] {
  const prefix = '--disable-features=';
  const theirs = launcherDefaults.find((flag) => flag.startsWith(prefix))?.slice(prefix.length);
  return [...CHROMIUM_FLAGS, prefix + [theirs, ...BACKGROUND_UI_FEATURES].filter(Boolean).join(',')];
}

/** The Chromium the bench measures with: the system one unless CHROMIUM_PATH names another. */
export const chromiumPath = () => process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/**
 * A headless Chromium for Lighthouse, started with the flags above; the caller kills it. A missing
 * browser is a clear error the bench's own clean-up sees (chrome-launcher's spawn failure is an
 * unhandled 'error' event that ended the process and left the bench's worker serving).
 */
export async function launchChromium() {
  if (!existsSync(chromiumPath()))
    throw new Error(
      `no Chromium at ${chromiumPath()}: run \`bash scripts/ensure-chromium.sh\` (as npm test does) or set CHROMIUM_PATH`,
    );
  const chromeLauncher = await import('chrome-launcher');
  return chromeLauncher.launch({
    chromePath: chromiumPath(),
    chromeFlags: lighthouseChromeFlags(chromeLauncher.Launcher.defaultFlags()),
    logLevel: 'silent',
  });
}

/** One Lighthouse load of `url` in the Chromium listening on `port`, over the four categories the bench reports. */
export async function lighthouseLoad(url: string, port: number) {
  const { default: lighthouse } = await import('lighthouse');
  return lighthouse(url, {
    port,
    logLevel: 'error',
    output: 'json',
    onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
  });
}
