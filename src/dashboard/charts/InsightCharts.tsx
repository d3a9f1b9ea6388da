import type { ClientRequestOptions, ClientResponse } from 'hono/client';
import {
  Bar,
  BarChart,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { client, type Success } from '../../lib/api';
import { formatPence } from '../../lib/format';
import { useApiGet } from '../lib/use-api';
import { CHART_HEIGHT as HEIGHT, CHART_TITLES, ChartCard, ChartLoading as Loading } from './ChartCard';
import { axisPounds, monthLabel, pounds, weekLabel, weekLongLabel } from './data';
import { chartSizes, useTextScale } from './text-scale';

/**
 * The overview's charts for admins and org admins (lazy-loaded: recharts is fetched only here).
 * Colours and text come from CSS variables, so light and dark theme need nothing else.
 */

const GRID = 'var(--line)';
const TOOLTIP = {
  contentStyle: { background: 'var(--dash-surface)', border: '1px solid var(--line)', color: 'var(--ink)' },
  labelStyle: { color: 'var(--ink)' },
};
/** A campaign's name cut to `chars` (fewer as the text grows, so a word does not spill past the axis). */
const shortened = (title: string, chars: number) => (title.length > chars ? `${title.slice(0, chars - 1)}…` : title);
/** Campaign names grow with the text, but never take more than two fifths of a phone's width from the bars. */
const twoFifthsOfWindow = () => Math.round(window.innerWidth * 0.4);
const poundsTooltip = (value: unknown) => formatPence(Math.round(Number(value) * 100));

const reports = client.api.reports;

/** One report for the caller's organizations (all of them: no organization_id). */
function useReport<R extends ClientResponse<unknown, number, string>>(
  key: string,
  send: (options: ClientRequestOptions) => Promise<R>,
): { error: string | null; data: Success<R> | null } {
  const [state] = useApiGet(key, send);
  if (state.status === 'error') return { error: state.error.message, data: null };
  return { error: null, data: state.status === 'ok' ? state.data : null };
}

function GiftsPerWeek() {
  const { tick, px } = chartSizes(useTextScale());
  const { data, error } = useReport('/api/reports/gifts-per-week', (o) =>
    reports['gifts-per-week'].$get({ query: {} }, o),
  );
  const title = CHART_TITLES.giftsPerWeek;
  if (!data) return <Loading title={title} error={error} />;
  const rows = data.weeks;
  const total = rows.reduce((n, w) => n + w.once_amount + w.monthly_amount, 0);
  const chartRows = rows.map((w) => ({
    label: weekLabel(w.week_start),
    once: pounds(w.once_amount),
    monthly: pounds(w.monthly_amount),
  }));
  return (
    <ChartCard
      title={title}
      summary={`Stacked bar chart of one-off and monthly gifts per week; ${formatPence(total)} in the last 52 weeks.`}
      rows={rows}
      rowKey={(w) => w.week_start}
      empty={total === 0}
      columns={[
        { header: 'Week starting', cell: (w) => weekLongLabel(w.week_start) },
        { header: 'One-off gifts', cell: (w) => w.once_count, numeric: true },
        { header: 'One-off amount', cell: (w) => formatPence(w.once_amount), numeric: true },
        { header: 'Monthly gifts', cell: (w) => w.monthly_count, numeric: true },
        { header: 'Monthly amount', cell: (w) => formatPence(w.monthly_amount), numeric: true },
      ]}
    >
      <ResponsiveContainer width="100%" height={px(HEIGHT)}>
        <BarChart data={chartRows} accessibilityLayer={false}>
          <CartesianGrid stroke={GRID} vertical={false} />
          <XAxis dataKey="label" tick={tick} interval="preserveStartEnd" minTickGap={px(24)} />
          <YAxis tick={tick} tickFormatter={axisPounds} width={px(64)} />
          <Tooltip formatter={poundsTooltip} {...TOOLTIP} />
          <Legend wrapperStyle={{ color: 'var(--ink)' }} />
          <Bar dataKey="once" name="One-off" stackId="gifts" fill="var(--chart-1)" isAnimationActive={false} />
          <Bar dataKey="monthly" name="Monthly" stackId="gifts" fill="var(--chart-2)" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </ChartCard>
  );
}

function CampaignProgress() {
  const scale = useTextScale();
  const { tick, px } = chartSizes(scale);
  const { data, error } = useReport('/api/reports/campaigns', (o) => reports.campaigns.$get({ query: {} }, o));
  const title = CHART_TITLES.campaignProgress;
  if (!data) return <Loading title={title} error={error} />;
  const rows = data.campaigns;
  const chartRows = rows.map((c) => ({
    label: shortened(c.title, Math.floor(24 / scale)),
    raised: pounds(c.raised),
    goal: pounds(c.goal),
  }));
  const percent = (c: (typeof rows)[number]) => (c.goal ? `${((c.raised / c.goal) * 100).toFixed(1)}%` : '-');
  return (
    <ChartCard
      title={title}
      summary={`Bar chart of money raised and goal for ${rows.length} live campaigns${rows[0] ? `; ${rows[0].title} leads with ${formatPence(rows[0].raised)}` : ''}.`}
      rows={rows}
      rowKey={(c) => c._id}
      empty={rows.length === 0}
      columns={[
        { header: 'Campaign', cell: (c) => c.title },
        { header: 'Raised', cell: (c) => formatPence(c.raised), numeric: true },
        { header: 'Goal', cell: (c) => formatPence(c.goal), numeric: true },
        { header: 'Of goal', cell: percent, numeric: true },
      ]}
    >
      <ResponsiveContainer width="100%" height={px(Math.max(HEIGHT, rows.length * 44))}>
        <BarChart data={chartRows} layout="vertical" accessibilityLayer={false} margin={{ left: 8 }}>
          <CartesianGrid stroke={GRID} horizontal={false} />
          <XAxis type="number" tick={tick} tickFormatter={axisPounds} />
          <YAxis type="category" dataKey="label" tick={tick} width={Math.min(px(150), twoFifthsOfWindow())} />
          <Tooltip formatter={poundsTooltip} {...TOOLTIP} />
          <Legend wrapperStyle={{ color: 'var(--ink)' }} />
          <Bar dataKey="raised" name="Raised" fill="var(--chart-1)" isAnimationActive={false} />
          <Bar dataKey="goal" name="Goal" fill="var(--chart-3)" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </ChartCard>
  );
}

function MonthlyRecurring() {
  const { tick, px } = chartSizes(useTextScale());
  const { data, error } = useReport('/api/reports/monthly-recurring', (o) =>
    reports['monthly-recurring'].$get({ query: {} }, o),
  );
  const title = CHART_TITLES.monthlyRecurring;
  if (!data) return <Loading title={title} error={error} />;
  const rows = data.months;
  const last = rows.at(-1);
  const chartRows = rows.map((m) => ({ label: monthLabel(m.month), income: pounds(m.income), donors: m.donors }));
  return (
    <ChartCard
      title={title}
      summary={`Bars of monthly gift income and a line of active monthly donors over 12 months${last ? `; ${monthLabel(last.month)}: ${formatPence(last.income)} from ${last.donors} donors` : ''}.`}
      rows={rows}
      rowKey={(m) => m.month}
      empty={rows.every((m) => m.income === 0)}
      columns={[
        { header: 'Month', cell: (m) => monthLabel(m.month) },
        { header: 'Monthly income', cell: (m) => formatPence(m.income), numeric: true },
        { header: 'Active monthly donors', cell: (m) => m.donors, numeric: true },
      ]}
    >
      <ResponsiveContainer width="100%" height={px(HEIGHT)}>
        <ComposedChart data={chartRows} accessibilityLayer={false}>
          <CartesianGrid stroke={GRID} vertical={false} />
          <XAxis dataKey="label" tick={tick} />
          <YAxis yAxisId="money" tick={tick} tickFormatter={axisPounds} width={px(64)} />
          <YAxis yAxisId="people" orientation="right" tick={tick} allowDecimals={false} width={px(40)} />
          <Tooltip
            {...TOOLTIP}
            formatter={(value, name) => (name === 'Income' ? poundsTooltip(value) : String(value))}
          />
          <Legend wrapperStyle={{ color: 'var(--ink)' }} />
          <Bar yAxisId="money" dataKey="income" name="Income" fill="var(--chart-2)" isAnimationActive={false} />
          <Line
            yAxisId="people"
            dataKey="donors"
            name="Active monthly donors"
            stroke="var(--chart-4)"
            strokeWidth={2}
            dot
            isAnimationActive={false}
          />
        </ComposedChart>
      </ResponsiveContainer>
    </ChartCard>
  );
}

function NewVsReturning() {
  const { tick, px } = chartSizes(useTextScale());
  const { data, error } = useReport('/api/reports/donors', (o) => reports.donors.$get({ query: {} }, o));
  const title = CHART_TITLES.newVsReturning;
  if (!data) return <Loading title={title} error={error} />;
  const rows = data.months;
  const chartRows = rows.map((m) => ({ label: monthLabel(m.month), fresh: m.new_donors, again: m.returning_donors }));
  const newTotal = rows.reduce((n, m) => n + m.new_donors, 0);
  return (
    <ChartCard
      title={title}
      summary={`Stacked bar chart of donors giving each month, new or returning; ${newTotal} new donors in 12 months.`}
      rows={rows}
      rowKey={(m) => m.month}
      empty={rows.every((m) => m.new_donors + m.returning_donors === 0)}
      columns={[
        { header: 'Month', cell: (m) => monthLabel(m.month) },
        { header: 'New donors', cell: (m) => m.new_donors, numeric: true },
        { header: 'Returning donors', cell: (m) => m.returning_donors, numeric: true },
      ]}
    >
      <ResponsiveContainer width="100%" height={px(HEIGHT)}>
        <BarChart data={chartRows} accessibilityLayer={false}>
          <CartesianGrid stroke={GRID} vertical={false} />
          <XAxis dataKey="label" tick={tick} />
          <YAxis tick={tick} allowDecimals={false} width={px(40)} />
          <Tooltip {...TOOLTIP} />
          <Legend wrapperStyle={{ color: 'var(--ink)' }} />
          <Bar dataKey="fresh" name="New" stackId="donors" fill="var(--chart-1)" isAnimationActive={false} />
          <Bar dataKey="again" name="Returning" stackId="donors" fill="var(--chart-3)" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </ChartCard>
  );
}

function GiftAid() {
  const { tick, px } = chartSizes(useTextScale());
  const { data, error } = useReport('/api/reports/gift-aid', (o) => reports['gift-aid'].$get({ query: {} }, o));
  const title = CHART_TITLES.giftAid;
  if (!data) return <Loading title={title} error={error} />;
  const rows = data.months;
  const aid = rows.reduce((n, m) => n + m.gift_aid, 0);
  const chartRows = rows.map((m) => ({
    label: monthLabel(m.month),
    eligible: pounds(m.eligible_amount),
    aid: pounds(m.gift_aid),
  }));
  return (
    <ChartCard
      title={title}
      summary={`Bar chart per month of gifts with a Gift Aid declaration and the Gift Aid they bring; ${formatPence(aid)} of Gift Aid in 12 months.`}
      rows={rows}
      rowKey={(m) => m.month}
      empty={rows.every((m) => m.total_amount === 0)}
      columns={[
        { header: 'Month', cell: (m) => monthLabel(m.month) },
        { header: 'All gifts', cell: (m) => formatPence(m.total_amount), numeric: true },
        { header: 'With Gift Aid', cell: (m) => formatPence(m.eligible_amount), numeric: true },
        { header: 'Gift Aid (25%)', cell: (m) => formatPence(m.gift_aid), numeric: true },
      ]}
    >
      <ResponsiveContainer width="100%" height={px(HEIGHT)}>
        <BarChart data={chartRows} accessibilityLayer={false}>
          <CartesianGrid stroke={GRID} vertical={false} />
          <XAxis dataKey="label" tick={tick} />
          <YAxis tick={tick} tickFormatter={axisPounds} width={px(64)} />
          <Tooltip formatter={poundsTooltip} {...TOOLTIP} />
          <Legend wrapperStyle={{ color: 'var(--ink)' }} />
          <Bar dataKey="eligible" name="Gifts with Gift Aid" fill="var(--chart-1)" isAnimationActive={false} />
          <Bar dataKey="aid" name="Gift Aid" fill="var(--chart-2)" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </ChartCard>
  );
}

export default function InsightCharts() {
  return (
    <div className="dash-chart-grid">
      <GiftsPerWeek />
      <CampaignProgress />
      <MonthlyRecurring />
      <NewVsReturning />
      <GiftAid />
    </div>
  );
}
