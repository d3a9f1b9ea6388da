import { describe, expect, it } from 'vitest';
import { absoluteUrl, clip, jsonLdText, knownImageSize } from './seo';
import { shareUrl } from './share';
import { youtubeId } from './video';

describe('share previews', () => {
  it('escapes markup in JSON-LD so a title cannot close the script element', () => {
    const text = jsonLdText({ name: '</script><script>alert(1)</script> & \u2028' });
    expect(text).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(text)).toEqual({ name: '</script><script>alert(1)</script> & \u2028' });
  });

  it('builds absolute URLs, clips descriptions and knows the demo image size', () => {
    expect(absoluteUrl('https://give.example.org', '/images/demo/cause-1.png')).toBe(
      'https://give.example.org/images/demo/cause-1.png',
    );
    expect(clip('a  b\n c')).toBe('a b c');
    expect(clip('x'.repeat(300))).toHaveLength(200);
    expect(knownImageSize('/images/demo/cause-3.png')).toEqual({ width: 1200, height: 800 });
    expect(knownImageSize('/images/abc')).toBeNull();
  });

  it('shares appeals at /appeals/{short id} and campaigns at /campaigns/{short id}', () => {
    expect(shareUrl('https://x.org/', { short_id: 'abc', campaign_id: 'parent' })).toBe('https://x.org/appeals/abc');
    expect(shareUrl('https://x.org', { short_id: 'abc', campaign_id: null })).toBe('https://x.org/campaigns/abc');
  });

  it('reads YouTube ids from the usual link shapes only', () => {
    expect(youtubeId('https://www.youtube.com/watch?v=aqz-KE-bpKQ')).toBe('aqz-KE-bpKQ');
    expect(youtubeId('https://youtu.be/aqz-KE-bpKQ')).toBe('aqz-KE-bpKQ');
    expect(youtubeId('https://vimeo.com/123')).toBeNull();
    expect(youtubeId('javascript:alert(1)')).toBeNull();
  });
});
