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
