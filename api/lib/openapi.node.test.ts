import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { setupTestApp } from '#test-app';

describe('OpenAPI document validity', () => {
  it('validates against the OpenAPI 3.1 schema', async () => {
    const { request } = await setupTestApp();
    const spec = await (await request('/api/openapi.json')).json();
    const validator = new Validator();
    const result = await validator.validate(spec as Parameters<Validator['validate']>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });
});
