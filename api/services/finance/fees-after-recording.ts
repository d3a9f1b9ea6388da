import type Stripe from 'stripe';
import type { Db } from '../../../db/client';
import type { Statement } from '../donations/record';
import { type FeeWanted, stripeSettlements } from '../payments/settlement';
import { storeSettlement } from './payouts-fees';

/**
 * Stripe's fee of a gift paid by card, written just after the gift is recorded instead of inside its
 * recording batch. Asking Stripe for one gift's fee (its charge with the balance transaction) cost a
 * webhook about a third of its CPU; after the answer, the gifts of a busy second share one list of
 * charges and one batch of writes (docs/decisions/041). The gift's amount, receipt and totals never
 * wait for it; a fee Stripe cannot give now is filled in by the payout that pays the gift out.
 */

/** How long the fees of a storm's gifts gather before one look-up answers them all. */
export const FEE_FILL_WINDOW_MS = 1000;
/** Gifts one look-up answers at most; the rest go in the next. */
export const FEE_FILL_MAX = 100;

type Gathering = { wanted: FeeWanted[]; done: Promise<void> };
/** `nextAt`: the earliest a look-up may start again; `gathering`: the gifts waiting for it. */
type Window = { nextAt: number; gathering: Gathering | null };
const windows = new WeakMap<Db, Window>();

export type FeeFillOptions = {
  /** Gather with other gifts of this isolate (a worker's answer has gone); false: look up and write now. */
  gather: boolean;
  now?: number;
  wait?: (ms: number) => Promise<void>;
};

/**
 * Looks up and stores the fee of this gift. Gathering, at most one look-up starts a window: the
 * first gift after a quiet window goes at once, the next ones wait for the window's end and go
 * together. The promise settles when this gift's fee is stored (or left to the payout).
 */
export function fillStripeFee(db: Db, stripe: Stripe, wanted: FeeWanted, options: FeeFillOptions): Promise<void> {
  if (!options.gather) return fillNow(db, stripe, [wanted]);
  const now = options.now ?? Date.now();
  const wait = options.wait ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let state = windows.get(db);
  if (!state) windows.set(db, (state = { nextAt: Number.NEGATIVE_INFINITY, gathering: null }));
  const open = state.gathering;
  if (open && open.wanted.length < FEE_FILL_MAX) {
    open.wanted.push(wanted);
    return open.done;
  }
  const at = Math.max(now, state.nextAt);
  state.nextAt = at + FEE_FILL_WINDOW_MS;
  if (at === now && !open) return fillNow(db, stripe, [wanted]);
  const window = state;
  const gathering: Gathering = { wanted: [wanted], done: Promise.resolve() };
  window.gathering = gathering;
  gathering.done = wait(at - now).then(() => {
    if (window.gathering === gathering) window.gathering = null;
    return fillNow(db, stripe, gathering.wanted);
  });
  return gathering.done;
}

async function fillNow(db: Db, stripe: Stripe, wanted: FeeWanted[]): Promise<void> {
  const found = await stripeSettlements(stripe, wanted);
  const writes: Statement[] = [...found].flatMap(([paymentIntentId, settlement]) =>
    storeSettlement(db, null, { paymentIntentId }, settlement),
  );
  if (writes.length) await db.batch(writes as [Statement, ...Statement[]]);
}
