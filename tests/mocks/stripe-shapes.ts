import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { STRIPE_FIXTURES as APP_FIXTURES } from '../../api/services/payments/stripe-fixtures';
import bacsFixtures from '../fixtures/stripe/fixtures3-bacs.json';

/** The app's copy of Stripe's fixtures, plus the Bacs resources only the tests need (payment_method). */
const { _source: _bacsSource, ...bacsResources } = bacsFixtures as unknown as Record<string, Record<string, unknown>>;
// Metadata is the caller's own map: the example's sample keys are not part of the shape.
const STRIPE_FIXTURES: Record<string, Record<string, unknown>> = {
  ...Object.fromEntries(Object.entries(bacsResources).map(([name, fixture]) => [name, { ...fixture, metadata: {} }])),
  ...APP_FIXTURES,
};

/**
 * Checks that an object has the shape of Stripe's own example for its resource
 * (api/services/payments/stripe-fixtures.ts, copied from Stripe's fixtures3.json): the same keys, recursively,
 * with the same value types. Rules:
 *
 * - Every key of the fixture must be present, and no other key, except keys Stripe's type declares
 *   optional (`field?:` in stripe-node's declarations): those may be missing, and may be present
 *   only with the type Stripe declares. Inside sub-objects the fixtures abbreviate some examples
 *   (`last_payment_error: {type}`), so there a key the resource's declarations name is accepted.
 * - `null` is accepted where the fixture holds null (a nullable field whose type the example does
 *   not show) or where stripe-node declares the field `| null`; anywhere else it is a failure.
 * - Expandable fields: an id string where the fixture holds an object reference, or an object
 *   (`{object: 'charge', …}`) where it holds an id, checked against that resource's fixture.
 * - `{}` in the fixture is a map (metadata: string values); arrays are checked item by item
 *   against the fixture's first item; lists (`object: 'list'`) item by item against the resource.
 *
 * The declarations are read from node_modules/stripe (the SDK the app uses), so the rules follow
 * the API version the app pins. Node only (it reads files).
 */

type Obj = Record<string, unknown>;
type Declared = { nullable: Set<string>; optional: Set<string>; names: Set<string> };
type Declarations = { top: Declared; nested: Declared };

/** resource → stripe-node declaration file and interface name */
const DECLARATION_FILES: Record<string, [string, string]> = {
  payment_intent: ['PaymentIntents', 'PaymentIntent'],
  charge: ['Charges', 'Charge'],
  refund: ['Refunds', 'Refund'],
  dispute: ['Disputes', 'Dispute'],
  invoice: ['Invoices', 'Invoice'],
  invoice_payment: ['InvoicePayments', 'InvoicePayment'],
  subscription: ['Subscriptions', 'Subscription'],
  subscription_item: ['SubscriptionItems', 'SubscriptionItem'],
  price: ['Prices', 'Price'],
  plan: ['Plans', 'Plan'],
  customer: ['Customers', 'Customer'],
  payout: ['Payouts', 'Payout'],
  balance_transaction: ['BalanceTransactions', 'BalanceTransaction'],
  mandate: ['Mandates', 'Mandate'],
  setup_intent: ['SetupIntents', 'SetupIntent'],
  payment_method: ['PaymentMethods', 'PaymentMethod'],
  'billing_portal.session': ['BillingPortal/Sessions', 'Session'],
  event: ['Events', 'EventBase'],
};

/** Sub-objects declared in another file: an invoice's lines, a subscription item's legacy plan. */
const NESTED_FILES: Record<string, [string, string][]> = {
  invoice: [['InvoiceLineItems', 'InvoiceLineItem']],
  subscription: [
    ['SubscriptionItems', 'SubscriptionItem'],
    ['Plans', 'Plan'],
  ],
  subscription_item: [['Plans', 'Plan']],
};

const stripeDir = path.join(path.dirname(createRequire(import.meta.url).resolve('stripe')), '..', 'esm', 'resources');
const declarationCache = new Map<string, Declarations>();

function collect(block: string): Declared {
  const out: Declared = { nullable: new Set(), optional: new Set(), names: new Set() };
  for (const m of block.matchAll(/^\s+([a-z_0-9]+)(\??): ([^;]*);$/gm)) {
    out.names.add(m[1]);
    if (/\|\s*null$/.test(m[3])) out.nullable.add(m[1]);
    if (m[2]) out.optional.add(m[1]);
  }
  return out;
}

function readDeclarations([file, name]: [string, string]): Declarations {
  const text = readFileSync(path.join(stripeDir, `${file}.d.ts`), 'utf8');
  const start = text.indexOf(`export interface ${name} {`);
  if (start < 0) throw new Error(`stripe-shapes: interface ${name} not found in ${file}.d.ts`);
  const namespaceName = name === 'EventBase' ? 'Event' : name;
  const nsStart = text.indexOf(`export declare namespace ${namespaceName} {`);
  return {
    top: collect(text.slice(start, text.indexOf('\n}\n', start))),
    nested: nsStart < 0 ? collect('') : collect(text.slice(nsStart, text.indexOf('\n}\n', nsStart))),
  };
}

function declarations(resource: string): Declarations {
  const cached = declarationCache.get(resource);
  if (cached) return cached;
  const entry = DECLARATION_FILES[resource];
  if (!entry) throw new Error(`stripe-shapes: no stripe-node declarations mapped for "${resource}"`);
  const result = readDeclarations(entry);
  for (const other of NESTED_FILES[resource] ?? []) {
    const more = readDeclarations(other);
    for (const part of [more.top, more.nested]) {
      for (const key of ['nullable', 'optional', 'names'] as const)
        for (const name of part[key]) result.nested[key].add(name);
    }
  }
  declarationCache.set(resource, result);
  return result;
}

const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
const isObj = (v: unknown): v is Obj => kind(v) === 'object';
const isReference = (v: unknown) =>
  isObj(v) && typeof v.id === 'string' && typeof v.object === 'string' && Object.keys(v).length === 2;

/** Every way `value` differs from Stripe's example `resource`; empty when it has Stripe's shape. */
export function stripeShapeProblems(resource: string, value: unknown): string[] {
  const problems: string[] = [];
  checkResource(resource, value, resource, problems);
  return problems;
}

/** Throws with every difference listed. */
export function expectStripeShape(resource: string, value: unknown): void {
  const problems = stripeShapeProblems(resource, value);
  if (problems.length) throw new Error(`Not shaped like Stripe's ${resource}:\n  ${problems.join('\n  ')}`);
}

function checkResource(resource: string, value: unknown, at: string, problems: string[]) {
  const fixture = STRIPE_FIXTURES[resource];
  if (!fixture) {
    problems.push(`${at}: no Stripe fixture for "${resource}"`);
    return;
  }
  if (!isObj(value)) {
    problems.push(`${at}: expected a ${resource} object, got ${kind(value)}`);
    return;
  }
  if (fixture.object !== undefined && value.object !== fixture.object)
    problems.push(`${at}.object: expected "${String(fixture.object)}", got ${JSON.stringify(value.object)}`);
  if (resource === 'event') {
    // The event fixture wraps a plan; ours wrap the resource named by data.object.object.
    const data = value.data;
    const inner = isObj(data) ? data.object : undefined;
    const innerResource = isObj(inner) && typeof inner.object === 'string' ? inner.object : null;
    const envelope = { ...fixture, data: { ...(fixture.data as Obj), object: {} } };
    checkObject(
      envelope,
      { ...value, data: isObj(data) ? { ...data, object: {} } : data },
      at,
      declarations('event'),
      true,
      problems,
    );
    if (!innerResource) problems.push(`${at}.data.object: expected a Stripe object with an "object" field`);
    else if (STRIPE_FIXTURES[innerResource]) checkResource(innerResource, inner, `${at}.data.object`, problems);
    else problems.push(`${at}.data.object: no Stripe fixture for "${innerResource}"`);
    return;
  }
  checkObject(fixture, value, at, declarations(resource), true, problems);
}

function checkObject(fixture: Obj, value: Obj, at: string, decl: Declarations, top: boolean, problems: string[]) {
  const rules = top ? decl.top : decl.nested;
  for (const key of Object.keys(fixture)) {
    if (!(key in value)) {
      if (!rules.optional.has(key)) problems.push(`${at}.${key}: missing`);
      continue;
    }
    checkValue(fixture[key], value[key], `${at}.${key}`, key, decl, rules, problems);
  }
  for (const key of Object.keys(value)) {
    if (key in fixture) continue;
    // Not in the example: only a field Stripe declares as optional (top level) or by name (inside).
    const declared = top ? rules.optional.has(key) : rules.names.has(key);
    if (!declared) problems.push(`${at}.${key}: not a field of Stripe's object`);
    else if (isObj(value[key]) && typeof (value[key] as Obj).object === 'string')
      checkExpanded(value[key] as Obj, `${at}.${key}`, problems);
  }
}

function checkExpanded(value: Obj, at: string, problems: string[]) {
  const resource = value.object as string;
  if (resource === 'list') return checkList(undefined, value, at, problems);
  if (STRIPE_FIXTURES[resource]) checkResource(resource, value, at, problems);
}

function checkList(fixtureList: Obj | undefined, value: Obj, at: string, problems: string[], decl?: Declarations) {
  for (const key of ['object', 'data', 'has_more', 'url'])
    if (!(key in value)) problems.push(`${at}.${key}: missing (a Stripe list has object, data, has_more, url)`);
  if (!Array.isArray(value.data)) return;
  const example = Array.isArray(fixtureList?.data) ? (fixtureList.data[0] as Obj | undefined) : undefined;
  value.data.forEach((item, i) => {
    const itemAt = `${at}.data[${i}]`;
    if (isObj(item) && typeof item.object === 'string' && STRIPE_FIXTURES[item.object])
      checkResource(item.object, item, itemAt, problems);
    else if (example && isObj(item) && decl) checkObject(example, item, itemAt, decl, false, problems);
    else if (example) problems.push(`${itemAt}: expected an object, got ${kind(item)}`);
  });
}

function checkValue(
  expected: unknown,
  actual: unknown,
  at: string,
  key: string,
  decl: Declarations,
  rules: Declared,
  problems: string[],
) {
  if (expected === null) {
    // A nullable field; the example does not show its type. Expanded objects are still checked.
    if (isObj(actual) && typeof actual.object === 'string') checkExpanded(actual, at, problems);
    return;
  }
  if (actual === null) {
    if (!rules.nullable.has(key) && !decl.nested.nullable.has(key))
      problems.push(`${at}: null, but Stripe never sends null here`);
    return;
  }
  const e = kind(expected);
  const a = kind(actual);
  if (e === 'string' && a === 'object') {
    // An expandable id, expanded.
    if (typeof (actual as Obj).object === 'string') return checkExpanded(actual as Obj, at, problems);
    problems.push(`${at}: expected an id string or an expanded object, got an object without "object"`);
    return;
  }
  if (e === 'object' && a === 'string' && isReference(expected)) return; // an unexpanded reference
  if (e !== a) {
    problems.push(`${at}: expected ${e}, got ${a}`);
    return;
  }
  if (e === 'array') {
    const example = (expected as unknown[])[0];
    if (example === undefined) {
      (actual as unknown[]).forEach((item, i) => {
        if (isObj(item) && typeof item.object === 'string') checkExpanded(item, `${at}[${i}]`, problems);
      });
      return;
    }
    (actual as unknown[]).forEach((item, i) => checkValue(example, item, `${at}[${i}]`, key, decl, rules, problems));
    return;
  }
  if (e !== 'object') return;
  const f = expected as Obj;
  const v = actual as Obj;
  if (Object.keys(f).length === 0) {
    // A map (metadata) or an object the example leaves empty.
    if (key === 'metadata')
      for (const [k, val] of Object.entries(v))
        if (typeof val !== 'string') problems.push(`${at}.${k}: metadata values are strings, got ${kind(val)}`);
    return;
  }
  if (f.object === 'list') return checkList(f, v, at, problems, decl);
  if (typeof f.object === 'string' && STRIPE_FIXTURES[f.object] && !isReference(f))
    return checkResource(f.object, v, at, problems);
  checkObject(f, v, at, decl, false, problems);
}
