import { describe, expect, it } from 'vitest';
import { TOKEN_KEY } from '../../stores/auth';
import { STORED_TOKEN_KEY } from './sign-in-directive';

describe('client:signin', () => {
  it('looks for the session token under the key the auth store saves it under', () => {
    // The directive is inlined into every page and imports nothing, so it repeats the key.
    expect(STORED_TOKEN_KEY).toBe(TOKEN_KEY);
  });
});
