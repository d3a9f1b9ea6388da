import { eq, sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { createCampaign } from '../tests/factories';
import { engineName, setupTestApp } from '#test-app';
import { preparedRead } from './prepared';
import { campaigns } from './schema';

/** Prepared reads (db/prepared.ts) through drizzle's batch and on their own, on both engines. */
describe(`prepared reads (${engineName})`, () => {
  it('binds new values on every use, alone and in a batch, and builds the statement once', async () => {
    const t = await setupTestApp();
    const first = await createCampaign(t.db, { title: 'First prepared' });
    const second = await createCampaign(t.db, { title: 'Second prepared' });
    const build = vi.fn(() =>
      t.db
        .select({ title: campaigns.title })
        .from(campaigns)
        .where(eq(campaigns.id, sql.placeholder('id'))),
    );
    const read = (id: string) => preparedRead(t.db, 'test:title-by-id', build, { id });

    expect(await read(first.id)).toEqual([{ title: 'First prepared' }]);
    expect(await read(second.id)).toEqual([{ title: 'Second prepared' }]);
    const [a, b, none] = await t.db.batch([
      read(second.id),
      read(first.id),
      read('00000000-0000-4000-8000-000000000000'),
    ]);
    expect(a).toEqual([{ title: 'Second prepared' }]);
    expect(b).toEqual([{ title: 'First prepared' }]);
    expect(none).toEqual([]);
    expect(build).toHaveBeenCalledTimes(1);
  });

  it('keeps shapes apart, and one database’s statements away from another', async () => {
    const t = await setupTestApp();
    const campaign = await createCampaign(t.db, { title: 'Shaped' });
    const byId = () =>
      t.db
        .select({ v: campaigns.title })
        .from(campaigns)
        .where(eq(campaigns.id, sql.placeholder('id')));
    const idOnly = () =>
      t.db
        .select({ v: campaigns.id })
        .from(campaigns)
        .where(eq(campaigns.id, sql.placeholder('id')));
    expect(await preparedRead(t.db, 'test:shape-a', byId, { id: campaign.id })).toEqual([{ v: 'Shaped' }]);
    expect(await preparedRead(t.db, 'test:shape-b', idOnly, { id: campaign.id })).toEqual([{ v: campaign.id }]);
    // The same shape name on another drizzle instance is built again for it.
    const other = Object.create(t.db) as typeof t.db;
    const build = vi.fn(byId);
    expect(await preparedRead(other, 'test:shape-a', build, { id: campaign.id })).toEqual([{ v: 'Shaped' }]);
    expect(build).toHaveBeenCalledTimes(1);
  });
});
