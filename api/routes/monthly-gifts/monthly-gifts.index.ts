import type { Context } from 'hono';
import { createRouter } from '../../lib/create-app';
import type { AppEnv } from '../../lib/types';
import { requireUser } from '../../lib/policy';
import {
  cancelMonthlyGift,
  cancelMonthlyGiftForDonor,
  changeMonthlyGiftAmount,
  pauseMonthlyGift,
  resumeMonthlyGift,
} from '../../services/monthly-gifts/donor-actions';
import { listDonorMonthlyGifts, monthlyGiftFor, toMonthlyGiftDtos } from '../../services/monthly-gifts/records';
import { cancelByLink, readCancelLink } from '../../services/monthly-gifts/link-actions';
import { formatUkDate } from '../../../domain/dates';
import { monthlyGiftMethodLabel } from '../../../domain/direct-debit';
import { csvFile } from '../../lib/csv-file';
import { penceToDecimal } from '../../../domain/money';
import type { OfficeMonthlyGift } from '../../schemas/monthly-gifts';
import { csvStream, raw, type Cell } from '../../services/reports/csv';
import { officeMonthlyGifts } from '../../services/monthly-gifts/office-list';
import {
  cancelManaged,
  cancelMine,
  changeMine,
  exportOffice,
  getManaged,
  listMine,
  listOffice,
  pauseMine,
  readLink,
  resumeMine,
  useLink,
} from './monthly-gifts.routes';
import { serviceContext, signedInContext } from '../../lib/service-context';

const ukDate = (iso: string | null) => (iso ? formatUkDate(new Date(iso)) : '');

const CSV_HEADER = [
  'Donor name',
  'Donor email',
  'Amount (GBP)',
  'Campaign',
  'Appeal',
  'Status',
  'Method',
  'Started',
  'Next payment',
  'Cancelled',
  'Last payment failed',
  'Failure reason',
  'Failure email',
  'Monthly gift ID',
];

const csvCells = (g: OfficeMonthlyGift): Cell[] => [
  g.donor.name,
  g.donor.email,
  raw(penceToDecimal(g.amount)),
  g.campaign.title,
  g.appeal?.title ?? '',
  g.status,
  monthlyGiftMethodLabel(g.method, g.payment_method, g.bank_last4),
  ukDate(g.started_at),
  ukDate(g.next_payment_at),
  ukDate(g.cancelled_at),
  ukDate(g.last_failure?.failed_at ?? null),
  g.last_failure?.message ?? '',
  g.last_failure?.email ?? '',
  g._id,
];

const dto = async (c: Context<AppEnv>, row: Parameters<typeof toMonthlyGiftDtos>[1][number]) =>
  (await toMonthlyGiftDtos(c.var.db, [row]))[0];

/** Monthly gifts under the donor's control (/me/…) and their organizations' admins' (/monthly-gifts/…). */
export const monthlyGiftsRouter = createRouter()
  .openapi(readLink, async (c) =>
    c.json(
      await readCancelLink({ db: c.var.db, authSecret: c.var.config.authSecret }, c.req.valid('query').token),
      200,
    ),
  )
  .openapi(useLink, async (c) =>
    c.json(
      await cancelByLink({ ...serviceContext(c), authSecret: c.var.config.authSecret }, c.req.valid('json').token),
      200,
    ),
  )
  .openapi(listMine, async (c) => {
    const user = requireUser(c.var.user);
    return c.json(await toMonthlyGiftDtos(c.var.db, await listDonorMonthlyGifts(c.var.db, user.id)), 200);
  })
  .openapi(cancelMine, async (c) => {
    const gift = await monthlyGiftFor(signedInContext(c), c.req.valid('param').id, 'donor');
    return c.json(await dto(c, await cancelMonthlyGift(serviceContext(c), gift, 'donor')), 200);
  })
  .openapi(changeMine, async (c) => {
    const gift = await monthlyGiftFor(signedInContext(c), c.req.valid('param').id, 'donor');
    return c.json(await dto(c, await changeMonthlyGiftAmount(serviceContext(c), gift, c.req.valid('json').price)), 200);
  })
  .openapi(pauseMine, async (c) => {
    const gift = await monthlyGiftFor(signedInContext(c), c.req.valid('param').id, 'donor');
    return c.json(await dto(c, await pauseMonthlyGift(serviceContext(c), gift, c.req.valid('json').months)), 200);
  })
  .openapi(resumeMine, async (c) => {
    const gift = await monthlyGiftFor(signedInContext(c), c.req.valid('param').id, 'donor');
    return c.json(await dto(c, await resumeMonthlyGift(serviceContext(c), gift)), 200);
  })
  .openapi(listOffice, async (c) => {
    const { rows, total } = await officeMonthlyGifts(signedInContext(c), c.req.valid('query'));
    c.header('X-Total-Count', String(total));
    return c.json(rows, 200);
  })
  .openapi(exportOffice, async (c) => {
    const viewer = requireUser(c.var.user);
    const filters = c.req.valid('query');
    // Scope first, so a refused organization is a 403 rather than a broken stream.
    await officeMonthlyGifts({ db: c.var.db, viewer }, { ...filters, limit: 1, offset: 0, count: false });
    const stream = csvStream(
      CSV_HEADER,
      async (offset, limit) =>
        (await officeMonthlyGifts({ db: c.var.db, viewer }, { ...filters, offset, limit, count: false })).rows,
      csvCells,
      1000,
    );
    return csvFile(c, 'monthly-gifts', stream);
  })
  .openapi(getManaged, async (c) => {
    const gift = await monthlyGiftFor(signedInContext(c), c.req.valid('param').id, 'reader');
    return c.json(await dto(c, gift), 200);
  })
  .openapi(cancelManaged, async (c) => {
    const viewerCtx = signedInContext(c);
    const gift = await monthlyGiftFor(viewerCtx, c.req.valid('param').id, 'manager');
    return c.json(await dto(c, await cancelMonthlyGiftForDonor(viewerCtx, gift)), 200);
  });
