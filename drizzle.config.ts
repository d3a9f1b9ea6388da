import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'turso',
  schema: './db/schema/index.ts',
  out: './db/migrations',
  dbCredentials: { url: process.env.TURSO_DATABASE_URL ?? 'file:.cache/drizzle-kit.db' },
});
