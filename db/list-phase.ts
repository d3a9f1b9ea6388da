/**
 * Where an item sorts in the lists (docs/decisions/071): open for gifts first, then those still to
 * open, then the ended. Stored on the row (`campaigns.list_phase`) so a list reads its page straight
 * from an index; the same rule as domain/giving-ends.ts and giving-opens.ts, ended checked first.
 */
export const LIST_PHASE = { open: 0, opensLater: 1, ended: 2 } as const;

/** The London calendar day at a SQLite time value: GMT, or BST from 01:00 UTC on March's last Sunday to October's. */
export function londonDaySql(instant: string): string {
  const summerFrom = `datetime(date(${instant}, 'start of year', '+2 months', '+24 days', 'weekday 0'), '+1 hour')`;
  const summerUntil = `datetime(date(${instant}, 'start of year', '+9 months', '+24 days', 'weekday 0'), '+1 hour')`;
  return `date(${instant}, CASE WHEN datetime(${instant}) >= ${summerFrom} AND datetime(${instant}) < ${summerUntil} THEN '+1 hour' ELSE '+0 hours' END)`;
}

/**
 * The phase of the `campaigns` row being updated, on London day `today` (an SQL expression): an
 * appeal's giving ends with the earlier of its own and its campaign's end dates and opens with the
 * later of their start dates. A missing or empty date never ends (or delays) giving.
 */
export function listPhaseSql(today: string): string {
  const parent = (column: string) =>
    `(SELECT nullif(\`p\`.\`${column}\`, '') FROM \`campaigns\` AS \`p\` WHERE \`p\`.\`id\` = \`campaigns\`.\`campaign_id\`)`;
  const lastDay = `min(coalesce(nullif(\`campaigns\`.\`date_to\`, ''), '9999-12-31'), coalesce(${parent('date_to')}, '9999-12-31'))`;
  const firstDay = `max(coalesce(\`campaigns\`.\`date_from\`, ''), coalesce(${parent('date_from')}, ''))`;
  return `CASE WHEN ${lastDay} < ${today} THEN ${LIST_PHASE.ended} WHEN ${firstDay} > ${today} THEN ${LIST_PHASE.opensLater} ELSE ${LIST_PHASE.open} END`;
}

/**
 * The triggers' expression (migration 0024): the row's phase on the London day of the statement.
 * Triggers keep it on every insert and date change; the hourly run moves rows across midnight.
 */
export const LIST_PHASE_NOW_SQL = listPhaseSql(londonDaySql(`'now'`));
