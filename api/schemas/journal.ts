import { z } from '@hono/zod-openapi';
import { DAY_MS, isIsoDay } from '../../domain/dates';
import { JOURNAL_FORMATS } from '../../domain/finance';
import { idParam } from '../services/reports/list-filters';

/** At most about ten years in one file: a year's journal is what accountants ask for. */
const MAX_JOURNAL_DAYS = 3700;

const requiredDay = (what: string) =>
  z
    .string({ error: `Enter the ${what} London day, like 2026-03-31` })
    .refine((v) => isIsoDay(v), 'Enter a date like 2026-03-31')
    .openapi({ description: `${what[0].toUpperCase()}${what.slice(1)} London day, YYYY-MM-DD (inclusive)` });

export const journalQuery = z
  .object({
    from: requiredDay('first'),
    to: requiredDay('last'),
    organization_id: idParam('an organization').openapi({
      description: 'One organization (org admins: one of theirs)',
    }),
    format: z
      .enum(JOURNAL_FORMATS, { error: `Must be one of: ${JOURNAL_FORMATS.join(', ')}` })
      .default('xero')
      .openapi({ description: 'xero: Xero manual journal import (signed Amount); sage: Debit and Credit columns' }),
  })
  .superRefine((v, ctx) => {
    if (!isIsoDay(v.from) || !isIsoDay(v.to)) return;
    if (v.to < v.from) ctx.addIssue({ code: 'custom', path: ['to'], message: 'Must be on or after from' });
    else if ((Date.parse(v.to) - Date.parse(v.from)) / DAY_MS > MAX_JOURNAL_DAYS) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: `Ask for at most ${MAX_JOURNAL_DAYS} days at once` });
    }
  });
export type JournalQuery = z.infer<typeof journalQuery>;
