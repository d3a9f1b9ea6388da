import { beforeAll, describe, expect, it } from 'vitest';
import { createCampaign, signedIn } from '../../../tests/factories';
import { engineName, setupTestApp, type TestApp } from '#test-app';
import { MAX_CAMPAIGN_BODY_BYTES } from '../../services/campaigns/images';

const MB = 1024 * 1024;
const CHUNK = 1024 * 1024;

/** A JSON body of `total` bytes made on demand, counting how much of it the server pulled. */
function meteredBody(total: number) {
  const meter = { pulled: 0 };
  const chunk = new TextEncoder().encode('x'.repeat(CHUNK));
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (meter.pulled === 0) {
        const head = new TextEncoder().encode('{"story":"');
        meter.pulled += head.length;
        controller.enqueue(head);
        return;
      }
      if (meter.pulled >= total) {
        controller.close();
        return;
      }
      meter.pulled += chunk.length;
      controller.enqueue(chunk);
    },
  });
  return { stream, meter };
}

describe(`request body limits on campaign saves (${engineName})`, () => {
  let t: TestApp;
  let donorToken: string;
  let adminToken: string;
  let parentId: string;

  beforeAll(async () => {
    t = await setupTestApp();
    donorToken = (await signedIn(t.db, 'donor')).token;
    adminToken = (await signedIn(t.db, 'admin')).token;
    parentId = (await createCampaign(t.db)).id;
  });

  const send = (body: ReadableStream<Uint8Array>, headers: Record<string, string>, token?: string) =>
    t.app.request(
      '/api/campaigns',
      {
        method: 'POST',
        body,
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...headers,
        },
        duplex: 'half',
      } as RequestInit,
      t.env,
    );

  it('names the largest legal body: nine 5 MB images with three 1 MB copies each, as base64 (about 96 MB)', () => {
    expect(MAX_CAMPAIGN_BODY_BYTES).toBeGreaterThan(95 * MB);
    expect(MAX_CAMPAIGN_BODY_BYTES).toBeLessThan(97 * MB);
  });

  it("refuses a donor's declared 45 MB body by its Content-Length, without reading it", async () => {
    const { stream, meter } = meteredBody(45 * MB);
    const res = await send(stream, { 'content-length': String(45 * MB) }, donorToken);
    expect(res.status).toBe(413);
    const body = (await res.json()) as { statusCode: number; message: string };
    expect(body).toMatchObject({ statusCode: 413 });
    expect(body.message).toMatch(
      /^Request body is too large \(limit 33\.\d MB: 25 MB of image uploads a day, as sent\)/,
    );
    expect(meter.pulled).toBeLessThan(2 * CHUNK);
  });

  it('stops reading a 45 MB chunked body (no Content-Length) at the limit', { timeout: 30_000 }, async () => {
    const { stream, meter } = meteredBody(45 * MB);
    const res = await send(stream, {}, donorToken);
    expect(res.status).toBe(413);
    expect(meter.pulled).toBeLessThan(34 * MB + 2 * CHUNK);
  });

  it("refuses an anonymous save before reading anything, and an admin's body over the legal maximum", async () => {
    const anonymous = meteredBody(45 * MB);
    expect((await send(anonymous.stream, { 'content-length': String(45 * MB) })).status).toBe(401);
    expect(anonymous.meter.pulled).toBeLessThan(2 * CHUNK);
    const admin = meteredBody(MAX_CAMPAIGN_BODY_BYTES + MB);
    const res = await send(admin.stream, { 'content-length': String(MAX_CAMPAIGN_BODY_BYTES + MB) }, adminToken);
    expect(res.status).toBe(413);
    expect(((await res.json()) as { message: string }).message).toMatch(/limit 96\.\d MB: nine images/);
  });

  it('still reads a legal-sized save and validates it', async () => {
    const res = await t.request('/api/campaigns', {
      method: 'POST',
      token: donorToken,
      json: {
        title: 'Walk',
        description: 'Miles',
        goal: 1000,
        images: [],
        campaign_id: parentId,
        story: 'x'.repeat(200 * 1024),
      },
    });
    expect(res.status).toBe(400);
  });
});
