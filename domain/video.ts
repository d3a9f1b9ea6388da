/** Where a campaign's or appeal's video may be hosted (spec section 5). */
const VIDEO_HOSTS = [
  'youtube.com',
  'youtu.be',
  'youtube-nocookie.com',
  'vimeo.com',
  'loom.com',
  'wistia.com',
  'wistia.net',
];

/** An https link, without a user name or password, to YouTube, Vimeo, Loom or Wistia. */
export function isAllowedVideoUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' || url.username || url.password) return false;
  const host = url.hostname.toLowerCase();
  return VIDEO_HOSTS.some((allowed) => host === allowed || host.endsWith(`.${allowed}`));
}
