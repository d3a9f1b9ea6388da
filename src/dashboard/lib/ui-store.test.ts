import { afterEach, describe, expect, it } from 'vitest';
import {
  $sidebarOpen,
  parseTheme,
  readSidebarCookie,
  resolveTheme,
  sidebarCookieValue,
  SIDEBAR_COOKIE_MAX_AGE,
  startLoading,
  $loading,
} from '../../stores/dashboard';

describe('dashboard store helpers', () => {
  afterEach(() => $sidebarOpen.set(true));

  it('reads the sidebar cookie among others', () => {
    expect(readSidebarCookie('a=1; sidebar:state=false; b=2')).toBe(false);
    expect(readSidebarCookie('sidebar:state=true')).toBe(true);
    expect(readSidebarCookie('other=1')).toBeUndefined();
  });

  it('writes a 7-day cookie', () => {
    expect(SIDEBAR_COOKIE_MAX_AGE).toBe(604800);
    expect(sidebarCookieValue(false)).toBe('sidebar:state=false; path=/; max-age=604800; samesite=lax');
  });

  it('accepts only known themes and resolves system by preference', () => {
    expect(parseTheme('dark')).toBe('dark');
    expect(parseTheme('purple')).toBe('system');
    expect(parseTheme(null)).toBe('system');
    expect(resolveTheme('system', true)).toBe('dark');
    expect(resolveTheme('system', false)).toBe('light');
    expect(resolveTheme('light', true)).toBe('light');
  });

  it('the loading flag stays on until every load has finished', () => {
    const a = startLoading();
    const b = startLoading();
    expect($loading.get()).toBe(true);
    a();
    a();
    expect($loading.get()).toBe(true);
    b();
    expect($loading.get()).toBe(false);
  });
});
