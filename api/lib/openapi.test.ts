import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../../tests/setup/test-app';

describe('OpenAPI document', () => {
  it('is served at /api/openapi.json with the routes declared through createRoute', async () => {
    const { request } = await setupTestApp();
    const res = await request('/api/openapi.json');
    expect(res.status).toBe(200);
    const spec = (await res.json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(spec.openapi).toBe('3.1.0');
    expect(Object.keys(spec.paths['/api/health'] ?? {})).toContain('get');
    expect(Object.keys(spec.paths['/api/template-causes'] ?? {})).toContain('get');
  });

  it('a query that fails its schema answers the error contract', async () => {
    const { request } = await setupTestApp();
    const res = await request('/api/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(await res.text()).toContain('/api/openapi.json');
  });
});
