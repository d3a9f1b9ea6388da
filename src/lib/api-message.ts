/**
 * The API's messages name the field they are about as it is sent ("amount_min: Must be 0 or more",
 * "gifts.2.amount: too large"): right for a client that fixes its request, not for a person at a
 * form. Here each part is said with the field as a person knows it ("Smallest amount: Must be 0 or
 * more", "Gift 3, amount: too large"); a message with no field prefix is kept as it is.
 */

/** Wire names whose words differ from what the screens call them. */
const LABELS: Record<string, string> = {
  amount_min: 'Smallest amount',
  amount_max: 'Largest amount',
  date_from: 'From date',
  date_to: 'To date',
  from: 'From date',
  to: 'To date',
  postal_code: 'Postcode',
  org_ids: 'Organizations',
  organization_id: 'Organization',
  campaign_id: 'Campaign',
  appeal_id: 'Appeal',
  donor_id: 'Donor',
  expected_total: 'Expected total',
  banked_on: 'Banked on',
  gift_aid: 'Gift Aid',
  limit: 'Rows per page',
  offset: 'Page',
  page: 'Page',
  q: 'Search',
};

/** Where the validator put the field: never something a person needs to read. */
const TRANSPORT = /^(?:body|json|query|param|params|header|headers)\./;
/** `field: message`, the field a path of snake_case keys and indexes. */
const PREFIXED = /^([a-z][a-z0-9_]*(?:\.(?:[a-z][a-z0-9_]*|\d+))*): (.+)$/s;

const words = (key: string) => LABELS[key] ?? key.replace(/_/g, ' ');
const singular = (key: string) => words(key).replace(/s$/, '');
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function fieldLabel(path: string): string {
  const keys = path.split('.');
  const parts: string[] = [];
  keys.forEach((key, i) => {
    if (/^\d+$/.test(key)) return;
    // "gifts.2.amount": the third gift's amount.
    const index = keys[i + 1];
    parts.push(/^\d+$/.test(index ?? '') ? `${capital(singular(key))} ${Number(index) + 1}` : words(key));
  });
  return capital(parts.join(', '));
}

function readablePart(part: string): string {
  const match = PREFIXED.exec(part.replace(TRANSPORT, ''));
  if (!match) return part;
  const label = fieldLabel(match[1]);
  const rest = match[2];
  // "name: Name is required" says the field twice.
  if (rest.toLowerCase().startsWith(label.toLowerCase())) return capital(rest);
  return `${label}: ${rest}`;
}

export function readableApiMessage(message: string): string {
  return message.split('; ').map(readablePart).join('; ');
}
