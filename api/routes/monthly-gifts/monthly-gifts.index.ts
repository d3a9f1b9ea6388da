import type { Context } from 'hono';
import { createRouter } from '../../lib/create-app';
import type { AppEnv } from '../../lib/types';
import { requireUser } from '../../lib/policy';
import { cancelMonthlyGift, changeMonthlyGiftAmount, pauseMonthlyGift, type ActionContext } from '../../services/monthly-gift-actions';
import { listDonorMonthlyGifts, monthlyGiftFor, toMonthlyGiftDtos } from '../../services/monthly-gifts';
import { mailContextOf } from '../../services/mail/context';
import { cancelByLink, readCancelLink } from '../../services/monthly-link-actions';
import { cancelManaged, cancelMine, changeMine, getManaged, listMine, pauseMine, readLink, useLink } from './monthly-gifts.routes';

const actionContext = (c: Context<AppEnv>): ActionContext => ({ db: c.var.db, payments: c.var.payments, mail: mailContextOf(c) });

const dto = async (c: Context<AppEnv>, row: Parameters<typeof toMonthlyGiftDtos>[1][number]) => (await toMonthlyGiftDtos(c.var.db, [row]))[0];

/** Monthly gifts under the donor's control (/me/…) and their organizations' admins' (/monthly-gifts/…). */
export const monthlyGiftsRouter = createRouter()
  .openapi(readLink, async (c) => c.json(await readCancelLink({ db: c.var.db, authSecret: c.var.config.authSecret }, c.req.valid('query').token), 200))
  .openapi(useLink, async (c) => c.json(await cancelByLink({ ...actionContext(c), authSecret: c.var.config.authSecret }, c.req.valid('json').token), 200))
  .openapi(listMine, async (c) => {
    const user = requireUser(c.var.user);
    return c.json(await toMonthlyGiftDtos(c.var.db, await listDonorMonthlyGifts(c.var.db, user.id)), 200);
  })
  .openapi(cancelMine, async (c) => {
    const gift = await monthlyGiftFor(c.var.db, requireUser(c.var.user), c.req.valid('param').id, 'donor');
    return c.json(await dto(c, await cancelMonthlyGift(actionContext(c), gift, 'donor')), 200);
  })
  .openapi(changeMine, async (c) => {
    const gift = await monthlyGiftFor(c.var.db, requireUser(c.var.user), c.req.valid('param').id, 'donor');
    return c.json(await dto(c, await changeMonthlyGiftAmount(actionContext(c), gift, c.req.valid('json').price)), 200);
  })
  .openapi(pauseMine, async (c) => {
    const gift = await monthlyGiftFor(c.var.db, requireUser(c.var.user), c.req.valid('param').id, 'donor');
    return c.json(await dto(c, await pauseMonthlyGift(actionContext(c), gift, c.req.valid('json').months)), 200);
  })
  .openapi(getManaged, async (c) => {
    const gift = await monthlyGiftFor(c.var.db, requireUser(c.var.user), c.req.valid('param').id, 'manager');
    return c.json(await dto(c, gift), 200);
  })
  .openapi(cancelManaged, async (c) => {
    const gift = await monthlyGiftFor(c.var.db, requireUser(c.var.user), c.req.valid('param').id, 'manager');
    return c.json(await dto(c, await cancelMonthlyGift(actionContext(c), gift, 'admin')), 200);
  });
