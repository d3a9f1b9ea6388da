import { formatLongUkDay } from '../../../domain/giving-ends';
import { toShortId } from '../../../domain/ids';
import { formatPence, percentRaised } from '../../../domain/money';
import { type MailMessage, operatorLine } from '../mail/mailer';
import { escapeHtml } from '../../../domain/html';

/** Emails to a fundraiser (the appeal's creator): text and HTML, every stored value escaped. */

export type FundraiserMailContext = {
  to: string;
  firstName: string;
  appealTitle: string;
  /** Pence raised so far, net of refunds. */
  raised: number;
  goal: number;
  appealUrl: string;
  settingsUrl: string;
  /** My Appeals, where the fundraiser sees and edits their appeals. */
  myAppealsUrl: string;
  /** The appeal's Supporters screen: everyone who gave (decision 075). Appeals only. */
  supportersUrl?: string;
  siteName?: string;
  /** What they started: an appeal (the default), or a campaign (decision 067), whose links are the campaign's. */
  kind?: 'appeal' | 'campaign';
};

/** Where a fundraiser's emails link: the appeal's public page, My Info (their email settings) and My Appeals. */
export function appealMailLinks(
  origin: string | null | undefined,
  appealId: string,
): Pick<FundraiserMailContext, 'appealUrl' | 'settingsUrl' | 'myAppealsUrl' | 'supportersUrl'> {
  const site = siteOrigin(origin);
  return {
    appealUrl: `${site}/appeals/${toShortId(appealId)}`,
    settingsUrl: `${site}/dashboard/donors/edit/me`,
    myAppealsUrl: `${site}/dashboard/active-appeals`,
    supportersUrl: `${site}/dashboard/supporters/${appealId}`,
  };
}

/** A campaign creator's links (decision 067): the campaign's public page and the dashboard's campaigns list. */
export function campaignMailLinks(
  origin: string | null | undefined,
  campaignId: string,
): Pick<FundraiserMailContext, 'appealUrl' | 'myAppealsUrl' | 'kind'> {
  const site = siteOrigin(origin);
  return {
    appealUrl: `${site}/campaigns/${toShortId(campaignId)}`,
    myAppealsUrl: `${site}/dashboard/active-campaigns`,
    kind: 'campaign',
  };
}

/** Whom a fundraiser writes to with questions: the appeal's organization, else the site's support address. */
export const charityContact = (organizationEmail: string | null, supportEmail: string) =>
  organizationEmail?.trim() || supportEmail;

/** The origin links start from, without a trailing slash ("" when none is configured). */
export const siteOrigin = (origin: string | null | undefined) => (origin ?? '').replace(/\/$/, '');

/** An appeal as the fundraiser emails read it: its row with its creator's address and its stored total. */
export type AppealForMail = {
  id: string;
  title: string;
  goal: number;
  raised: number;
  email: string;
  firstName: string | null;
};

/** The context every fundraiser email starts from: who it goes to, the appeal's figures and its links. */
export function fundraiserMailContext(
  appeal: AppealForMail,
  origin: string | null | undefined,
  siteName: string | undefined,
): FundraiserMailContext {
  return {
    to: appeal.email,
    firstName: appeal.firstName ?? '',
    appealTitle: appeal.title,
    raised: Number(appeal.raised),
    goal: appeal.goal,
    ...appealMailLinks(origin, appeal.id),
    siteName,
  };
}

/** The foot of the gifts and milestone emails, which My Info can turn off. */
const OPTIONAL_FOOT = 'You get these emails because you started this appeal.';

/** The link an email ends with: the appeal's page, or somewhere else when its page is off the site (none: null). */
type ClosingLink = { label: string; url: string } | null;
const seeYourAppeal = (ctx: FundraiserMailContext): ClosingLink => ({
  label: `See your ${ctx.kind ?? 'appeal'}`,
  url: ctx.appealUrl,
});
/** The foot of an email that comes once (ended, opened, approved, taken down). */
const onceFoot = (ctx: FundraiserMailContext) =>
  `You get this email once, because you started this ${ctx.kind ?? 'appeal'}.`;

function layout(
  site: string,
  paragraphs: string[],
  ctx: FundraiserMailContext,
  once = false,
  closing: ClosingLink = seeYourAppeal(ctx),
): string {
  const foot = once
    ? escapeHtml(onceFoot(ctx))
    : `${OPTIONAL_FOOT} <a href="${escapeHtml(ctx.settingsUrl)}" style="color:#07523a">Turn them off in My Info</a>.`;
  return `<!doctype html>
<html lang="en-GB"><body style="margin:0;background:#f6f8f7;font-family:system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;color:#1b2430">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:24px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:520px;background:#ffffff;border-radius:12px;border:1px solid #d9dee3">
<tr><td style="background:#0b6e4f;color:#ffffff;padding:16px 24px;border-radius:12px 12px 0 0;font-weight:800;font-size:20px">${escapeHtml(site)}</td></tr>
<tr><td style="padding:24px">
${paragraphs.map((p) => (p.startsWith('<ul') ? p : `<p style="margin:0 0 16px">${p}</p>`)).join('\n')}
${closing ? `<p style="margin:0 0 16px"><a href="${escapeHtml(closing.url)}" style="color:#07523a;font-weight:700">${escapeHtml(closing.label)}</a></p>\n` : ''}<p style="margin:0;color:#4f5b67;font-size:13px">${foot}</p>
</td></tr></table>
<p style="color:#4f5b67;font-size:12px">${escapeHtml(operatorLine(site))}</p>
</td></tr></table></body></html>`;
}

function footerText(
  ctx: FundraiserMailContext,
  site: string,
  once = false,
  closing: ClosingLink = seeYourAppeal(ctx),
): string[] {
  return [
    ...(closing ? ['', `${closing.label}: ${closing.url}`] : []),
    '',
    once ? onceFoot(ctx) : `${OPTIONAL_FOOT} Turn them off in My Info: ${ctx.settingsUrl}`,
    '',
    operatorLine(site),
  ];
}

const progress = (ctx: FundraiserMailContext) =>
  `${formatPence(ctx.raised)} raised of ${formatPence(ctx.goal)} (${percentRaised(ctx.raised, ctx.goal)}%)`;

/** Both emails: a greeting, the news (as text and as HTML), the appeal's progress, then the footer. */
function appealNews(
  ctx: FundraiserMailContext,
  subject: string,
  news: { text: string; html: string; details?: { text: string[]; html: string[] } },
): MailMessage {
  const site = ctx.siteName ?? 'UK NFP';
  const greeting = ctx.firstName ? `Hello ${ctx.firstName},` : 'Hello,';
  const details = news.details ?? { text: [], html: [] };
  const text = [
    greeting,
    '',
    news.text,
    ...details.text,
    `It now has ${progress(ctx)}.`,
    ...footerText(ctx, site),
  ].join('\n');
  const html = layout(
    site,
    [escapeHtml(greeting), news.html, ...details.html, `It now has ${escapeHtml(progress(ctx))}.`],
    ctx,
  );
  return { to: ctx.to, subject, text, html };
}

/** How many gifts a gifts email names; the rest are counted ("and 3 more"). */
export const GIFTS_LISTED = 10;

/** One gift as the fundraiser is told of it: the name the appeal page shows, the amount unless hidden, the message. */
export type GiftLine = { name: string; amount: number | null; message: string | null };

const giftLineText = (line: GiftLine) =>
  `${line.name}${line.amount === null ? '' : ` (${formatPence(line.amount)})`}${line.message ? `: “${line.message}”` : ''}`;

/**
 * "Your appeal received N gifts": at most one an hour, covering every gift since the last one.
 * It says who gave (as the appeal page shows them) and their messages, so the fundraiser can thank them.
 */
export function appealGiftsEmail(
  ctx: FundraiserMailContext,
  gifts: { count: number; total: number; lines?: GiftLine[] },
): MailMessage {
  const what =
    gifts.count === 1
      ? `a new gift of ${formatPence(gifts.total)}`
      : `${gifts.count} new gifts totalling ${formatPence(gifts.total)}`;
  const subject = `“${ctx.appealTitle}” received ${gifts.count === 1 ? 'a new gift' : `${gifts.count} new gifts`}`;
  const lines = gifts.lines ?? [];
  const more = gifts.count - lines.length;
  const items = [...lines.map(giftLineText), ...(more > 0 ? [`and ${more} more`] : [])];
  // Everyone who has given so far, to thank them: the appeal's Supporters screen (decision 075).
  const everyone = ctx.supportersUrl
    ? {
        text: [`See everyone who has given: ${ctx.supportersUrl}`, ''],
        html: [`<a href="${escapeHtml(ctx.supportersUrl)}">See everyone who has given</a>`],
      }
    : { text: [], html: [] };
  const details = lines.length
    ? {
        text: ['', 'From:', ...items.map((item) => `- ${item}`), '', ...everyone.text],
        html: [
          'From:',
          `<ul style="margin:0 0 16px;padding-left:20px">${items.map((item) => `<li>${escapeHtml(item)}</li>`).join('')}</ul>`,
          ...everyone.html,
        ],
      }
    : everyone.text.length
      ? { text: ['', ...everyone.text], html: everyone.html }
      : undefined;
  return appealNews(ctx, subject, {
    text: `Good news: your appeal “${ctx.appealTitle}” received ${what}.`,
    html: `Good news: your appeal <strong>${escapeHtml(ctx.appealTitle)}</strong> received ${escapeHtml(what)}.`,
    details,
  });
}

/** Sent once when an appeal passes half of its goal, and once when it reaches it. */
export function appealMilestoneEmail(ctx: FundraiserMailContext, milestone: 50 | 100): MailMessage {
  const subject =
    milestone === 100 ? `“${ctx.appealTitle}” reached its goal!` : `“${ctx.appealTitle}” is halfway to its goal`;
  const headline =
    milestone === 100
      ? 'has reached its goal. Thank you for making it happen!'
      : 'is halfway to its goal. Keep sharing it!';
  return appealNews(ctx, subject, {
    text: `Your appeal “${ctx.appealTitle}” ${headline}`,
    html: `Your appeal <strong>${escapeHtml(ctx.appealTitle)}</strong> ${escapeHtml(headline)}`,
  });
}

/** The appeal's figures when it ended, from its stored totals (campaign_totals). */
export type EndedSummary = {
  /** Counted gifts (succeeded). */
  gifts: number;
  /** The last day it took gifts, "YYYY-MM-DD". */
  lastDay: string;
  /** Set when the appeal ended because its campaign did: that campaign's title. */
  campaignTitle?: string | null;
};

/** What both ended emails say (an appeal's, 056, and a campaign's, 069): its figures, its page, monthly gifts, reopening. */
function endedWords(ctx: FundraiserMailContext, gifts: number) {
  const kind = ctx.kind ?? 'appeal';
  const counted = gifts === 1 ? '1 gift' : `${gifts} gifts`;
  return {
    subject: `Your ${kind} ${ctx.appealTitle} has ended: ${formatPence(ctx.raised)} raised`,
    figures: `${formatPence(ctx.raised)} raised from ${counted}: ${percentRaised(ctx.raised, ctx.goal)}% of its ${formatPence(ctx.goal)} goal.`,
    page: `${kind === 'appeal' ? 'Your appeal page' : 'Its page'} stays up: it still shows the total raised, and now says “Ended” instead of taking gifts.`,
    monthly: 'Monthly gifts that were already running continue to go to the charity.',
    mistake: 'If this was a mistake, change the end date in your dashboard to reopen it',
  };
}

/**
 * Sent once when an appeal's last giving day has passed (decision 056): thanks, what it raised,
 * what its page shows now, that running monthly gifts continue, and how to reopen it. Not one of
 * the emails My Info turns off: it comes once, like an account notice.
 */
export function appealEndedEmail(ctx: FundraiserMailContext, summary: EndedSummary): MailMessage {
  const site = ctx.siteName ?? 'UK NFP';
  const greeting = ctx.firstName ? `Hello ${ctx.firstName},` : 'Hello,';
  const when = `on ${formatLongUkDay(summary.lastDay)}`;
  const why = summary.campaignTitle ? `, with the campaign “${summary.campaignTitle}” it belongs to` : '';
  const { subject, figures, page, monthly, mistake } = endedWords(ctx, summary.gifts);
  const text = [
    greeting,
    '',
    `Thank you for your appeal “${ctx.appealTitle}”. It ended ${when}${why}.`,
    '',
    figures,
    '',
    page,
    monthly,
    '',
    `${mistake}: ${ctx.myAppealsUrl}`,
    ...footerText(ctx, site, true),
  ].join('\n');
  const html = layout(
    site,
    [
      escapeHtml(greeting),
      `Thank you for your appeal <strong>${escapeHtml(ctx.appealTitle)}</strong>. It ended ${escapeHtml(when + why)}.`,
      `<strong>${escapeHtml(figures)}</strong>`,
      escapeHtml(page),
      escapeHtml(monthly),
      `${escapeHtml(mistake)}: <a href="${escapeHtml(ctx.myAppealsUrl)}" style="color:#07523a">your active appeals</a>.`,
    ],
    ctx,
    true,
  );
  return { to: ctx.to, subject, text, html };
}

/** A campaign's figures when it ended (decision 069): its stored totals count its appeals' gifts too. */
export type CampaignEndedSummary = {
  /** Counted gifts (succeeded), to the campaign and its appeals. */
  gifts: number;
  /** Gift Aid declared on them (25% of their net amounts): what the charity can claim from HMRC. */
  giftAid: number;
  /** The last day it took gifts, "YYYY-MM-DD". */
  lastDay: string;
  /** Its appeals on the site (approved). */
  appeals: number;
  /** Those that raised the most (more than nothing), at most CAMPAIGN_TOP_APPEALS: title and pence raised. */
  topAppeals: { title: string; raised: number }[];
  /** Pence in by card online, by Direct Debit, and offline (by hand or in a batch), said when more than one; and the payment fees on it. */
  bySource?: { card: number; directDebit: number; offline: number; fees: number };
};

/** "Of it, £120.00 came by card, £30.00 by Direct Debit and £40.00 offline …": null when it all came one way. */
function sourcesLine(bySource: CampaignEndedSummary['bySource']): string | null {
  if (!bySource) return null;
  const ways: [number, string][] = [
    [bySource.card, 'by card'],
    [bySource.directDebit, 'by Direct Debit'],
    [bySource.offline, 'offline (entered by hand or in a batch)'],
  ];
  const parts = ways
    .filter(([pence]) => pence > 0)
    .map(([pence, how], i) => `${formatPence(pence)}${i === 0 ? ' came' : ''} ${how}`);
  if (parts.length < 2) return null;
  return `Of it, ${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}.`;
}

/** How many of a campaign's appeals its ended email names. */
export const CAMPAIGN_TOP_APPEALS = 3;

/**
 * Sent once to a campaign's creator when its last giving day has passed (decision 069), as its
 * appeals' fundraisers are told (056): what it raised with its appeals and the Gift Aid declared on
 * it, the appeals that raised most, what its page shows now, and how to reopen it.
 */
export function campaignEndedEmail(ctx: FundraiserMailContext, summary: CampaignEndedSummary): MailMessage {
  const site = ctx.siteName ?? 'UK NFP';
  const greeting = ctx.firstName ? `Hello ${ctx.firstName},` : 'Hello,';
  const { subject, figures, page, monthly, mistake } = endedWords(ctx, summary.gifts);
  const sources = sourcesLine(summary.bySource);
  const fees = summary.bySource?.fees
    ? `Payment fees on it came to ${formatPence(summary.bySource.fees)}, so ${formatPence(ctx.raised - summary.bySource.fees)} reached the charity.`
    : null;
  const giftAid =
    summary.giftAid > 0
      ? `Donors declared Gift Aid worth ${formatPence(summary.giftAid)} more, to claim from HMRC on the dashboard's Gift Aid screen.`
      : null;
  const others = summary.appeals - summary.topAppeals.length;
  const appeals =
    summary.appeals === 0
      ? 'No appeal was started under it.'
      : `${summary.appeals === 1 ? '1 appeal was' : `${summary.appeals} appeals were`} on the site under it; each fundraiser is emailed their own appeal's figures.${summary.topAppeals.length ? ' Those that raised most:' : ''}`;
  const lines = [
    ...summary.topAppeals.map((a) => `${a.title}: ${formatPence(a.raised)}`),
    ...(others > 0 && summary.topAppeals.length ? [`and ${others} more`] : []),
  ];
  const text = [
    greeting,
    '',
    `Thank you for your campaign “${ctx.appealTitle}”. It ended on ${formatLongUkDay(summary.lastDay)}.`,
    '',
    figures,
    ...[sources, fees].filter((line) => line !== null),
    ...(giftAid ? [giftAid] : []),
    '',
    appeals,
    ...lines.map((line) => `- ${line}`),
    '',
    page,
    monthly,
    '',
    `${mistake}: ${ctx.myAppealsUrl}`,
    ...footerText(ctx, site, true),
  ].join('\n');
  const html = layout(
    site,
    [
      escapeHtml(greeting),
      `Thank you for your campaign <strong>${escapeHtml(ctx.appealTitle)}</strong>. It ended on ${escapeHtml(formatLongUkDay(summary.lastDay))}.`,
      `<strong>${escapeHtml(figures)}</strong>${[sources, fees, giftAid].map((line) => (line ? `<br>${escapeHtml(line)}` : '')).join('')}`,
      escapeHtml(appeals),
      ...(lines.length
        ? [
            `<ul style="margin:0 0 16px;padding-left:20px">${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>`,
          ]
        : []),
      `${escapeHtml(page)} ${escapeHtml(monthly)}`,
      `${escapeHtml(mistake)}: <a href="${escapeHtml(ctx.myAppealsUrl)}" style="color:#07523a">your active campaigns</a>.`,
    ],
    ctx,
    true,
  );
  return { to: ctx.to, subject, text, html };
}

/** What the "now open" email says beyond the appeal's title and links. */
export type OpenedNews = {
  /** The first day it takes gifts, "YYYY-MM-DD" (its own start date or its campaign's, the later). */
  firstDay: string;
  /** Today in London, "YYYY-MM-DD": the email says "today" when the two are the same day. */
  today: string;
  /** Its last giving day, when it has one: the window to share it in. */
  lastDay: string | null;
  /** The fundraiser's My Info switches (no row: both on), so the email promises only what will come. */
  giftEmails: boolean;
  milestoneEmails: boolean;
};

function whatComesNext(news: OpenedNews): string | null {
  const gifts = 'as gifts arrive (at most once an hour)';
  const milestones = 'when it reaches half and all of its goal';
  if (news.giftEmails && news.milestoneEmails) return `We will email you ${gifts} and ${milestones}.`;
  if (news.giftEmails) return `We will email you ${gifts}.`;
  if (news.milestoneEmails) return `We will email you ${milestones}.`;
  return null;
}

/**
 * Sent once when an appeal that was waiting for its start date opens for gifts (decision 062): the
 * moment to share it. Like the ended email it comes once, so My Info does not turn it off.
 */
export function appealOpenedEmail(ctx: FundraiserMailContext, news: OpenedNews): MailMessage {
  const site = ctx.siteName ?? 'UK NFP';
  const greeting = ctx.firstName ? `Hello ${ctx.firstName},` : 'Hello,';
  const when = news.firstDay === news.today ? 'today' : `on ${formatLongUkDay(news.firstDay)}`;
  const until = news.lastDay ? ` It takes gifts until ${formatLongUkDay(news.lastDay)}.` : '';
  const opened = `Your appeal “${ctx.appealTitle}” opened for gifts ${when}.${until}`;
  const share = 'Now is the time to share its link: with friends and family, at work, or on social media.';
  const goal = `Its goal is ${formatPence(ctx.goal)}; ${formatPence(ctx.raised)} has been given so far.`;
  const told = whatComesNext(news);
  const subject = `Your appeal ${ctx.appealTitle} is open for gifts`;
  const text = [
    greeting,
    '',
    opened,
    '',
    share,
    ctx.appealUrl,
    '',
    goal,
    ...(told ? [told] : []),
    ...footerText(ctx, site, true),
  ].join('\n');
  const html = layout(
    site,
    [
      escapeHtml(greeting),
      `Your appeal <strong>${escapeHtml(ctx.appealTitle)}</strong> opened for gifts ${escapeHtml(when)}.${escapeHtml(until)}`,
      `${escapeHtml(share)}<br><a href="${escapeHtml(ctx.appealUrl)}" style="color:#07523a">${escapeHtml(ctx.appealUrl)}</a>`,
      escapeHtml(goal),
      ...(told ? [escapeHtml(told)] : []),
    ],
    ctx,
    true,
  );
  return { to: ctx.to, subject, text, html };
}

/** What the campaign's "now open" email says beyond its title and links (decision 067). */
export type CampaignOpenedNews = {
  /** Its start date, "YYYY-MM-DD". */
  firstDay: string;
  /** Today in London, "YYYY-MM-DD". */
  today: string;
  /** Its last giving day, when it has one. */
  lastDay: string | null;
  /** Its appeals on the site now (approved). */
  liveAppeals: number;
  /** Where a fundraiser starts an appeal under it (/fund-raising with the campaign chosen). */
  startUrl: string;
};

/**
 * Sent once to a campaign's creator when a campaign that waited for its start date opens for gifts
 * (decision 067): the link to share, what is given so far, and its appeals (whose fundraisers are
 * each told when their own appeal opens).
 */
export function campaignOpenedEmail(ctx: FundraiserMailContext, news: CampaignOpenedNews): MailMessage {
  const site = ctx.siteName ?? 'UK NFP';
  const greeting = ctx.firstName ? `Hello ${ctx.firstName},` : 'Hello,';
  const when = news.firstDay === news.today ? 'today' : `on ${formatLongUkDay(news.firstDay)}`;
  const until = news.lastDay ? ` It takes gifts until ${formatLongUkDay(news.lastDay)}.` : '';
  const share = 'Now is the time to share its link with your supporters.';
  const goal = `Its goal is ${formatPence(ctx.goal)}; ${formatPence(ctx.raised)} has been given so far.`;
  const appeals =
    news.liveAppeals === 0
      ? 'No appeal has been started under it yet. Fundraisers can start one for it here:'
      : `${news.liveAppeals === 1 ? '1 appeal is' : `${news.liveAppeals} appeals are`} on the site under it; each fundraiser is emailed when their own appeal opens. More can be started here:`;
  const subject = `Your campaign ${ctx.appealTitle} is open for gifts`;
  const text = [
    greeting,
    '',
    `Your campaign “${ctx.appealTitle}” opened for gifts ${when}.${until}`,
    '',
    share,
    ctx.appealUrl,
    '',
    goal,
    '',
    appeals,
    news.startUrl,
    ...footerText(ctx, site, true),
  ].join('\n');
  const link = (url: string) => `<a href="${escapeHtml(url)}" style="color:#07523a">${escapeHtml(url)}</a>`;
  const html = layout(
    site,
    [
      escapeHtml(greeting),
      `Your campaign <strong>${escapeHtml(ctx.appealTitle)}</strong> opened for gifts ${escapeHtml(when)}.${escapeHtml(until)}`,
      `${escapeHtml(share)}<br>${link(ctx.appealUrl)}`,
      escapeHtml(goal),
      `${escapeHtml(appeals)}<br>${link(news.startUrl)}`,
    ],
    ctx,
    true,
  );
  return { to: ctx.to, subject, text, html };
}

/**
 * Sent when the charity approves an appeal it held for review (organizations' "Appeals need
 * approval", decision 063): open now, with the link to share, or the day it opens.
 */
export function appealApprovedEmail(ctx: FundraiserMailContext, news: { opensOn: string | null }): MailMessage {
  const site = ctx.siteName ?? 'UK NFP';
  const greeting = ctx.firstName ? `Hello ${ctx.firstName},` : 'Hello,';
  const approved = `The charity has approved your appeal “${ctx.appealTitle}”.`;
  const state = news.opensOn
    ? `It opens for gifts on ${formatLongUkDay(news.opensOn)}; we will email you that morning, when it is time to share it.`
    : 'It is open for gifts now: share its link with friends and family, at work, or on social media.';
  const subject = `Your appeal ${ctx.appealTitle} is approved`;
  const text = [greeting, '', approved, state, ctx.appealUrl, ...footerText(ctx, site, true)].join('\n');
  const html = layout(
    site,
    [
      escapeHtml(greeting),
      `The charity has approved your appeal <strong>${escapeHtml(ctx.appealTitle)}</strong>.`,
      `${escapeHtml(state)}<br><a href="${escapeHtml(ctx.appealUrl)}" style="color:#07523a">${escapeHtml(ctx.appealUrl)}</a>`,
    ],
    ctx,
    true,
  );
  return { to: ctx.to, subject, text, html };
}

/** What the "taken down" email says beyond the appeal's title and figures. */
export type TakenDownNews = {
  /** What the charity set it (or its campaign) to: back to a draft (it can come back), or deleted. */
  status: 'draft' | 'deleted';
  /** Where questions go: its organization's address, else the site's support address. */
  contact: string;
  /** Set when the charity took down the appeal's campaign, not the appeal (decision 066): its title. */
  campaignTitle?: string;
  /** Its monthly gifts still set up, which go on to the charity (none when left out). */
  monthlyGifts?: number;
};

/**
 * Sent when the charity takes a fundraiser's appeal off the site (decision 064): set back to a draft
 * or deleted by someone other than its creator, or its campaign taken down (066). The page link
 * would answer 404, so the email ends with My Appeals, or with no link for a deleted appeal. Comes
 * once per appeal and take-down, like an account notice: My Info does not turn it off.
 */
export function appealTakenDownEmail(ctx: FundraiserMailContext, news: TakenDownNews): MailMessage {
  const site = ctx.siteName ?? 'UK NFP';
  const greeting = ctx.firstName ? `Hello ${ctx.firstName},` : 'Hello,';
  const draft = news.status === 'draft';
  const campaign = news.campaignTitle;
  const what = (quote: (title: string) => string) => {
    const appeal = quote(ctx.appealTitle);
    if (campaign === undefined)
      return draft ? `moved your appeal ${appeal} back to a draft` : `removed your appeal ${appeal}`;
    const theCampaign = `the campaign ${quote(campaign)}`;
    return draft
      ? `taken ${theCampaign} off the site for now, and with it your appeal ${appeal}`
      : `removed ${theCampaign}, and with it your appeal ${appeal}`;
  };
  const whose = campaign === undefined ? 'Its page' : 'Your appeal’s page';
  const until = campaign === undefined ? 'until the charity approves it again' : 'until the campaign is back';
  const state = draft
    ? `${whose} is off the site, and it takes no gifts ${until}.`
    : `${whose} is off the site, and it takes no more gifts.`;
  const given =
    ctx.raised > 0
      ? `The ${formatPence(ctx.raised)} given to it so far stays with the charity, as its donors meant.`
      : null;
  const monthly = news.monthlyGifts
    ? `${news.monthlyGifts === 1 ? '1 monthly gift to it is' : `${news.monthlyGifts} monthly gifts to it are`} still set up; ${news.monthlyGifts === 1 ? 'it continues' : 'they continue'} to go to the charity unless ${news.monthlyGifts === 1 ? 'its donor' : 'their donors'} or the charity ${news.monthlyGifts === 1 ? 'stops it' : 'stop them'}.`
    : null;
  const ask = `If you did not expect this, or have questions, write to the charity: ${news.contact}`;
  const closing: ClosingLink =
    draft || campaign !== undefined ? { label: 'See it in My Appeals', url: ctx.myAppealsUrl } : null;
  const subject =
    campaign !== undefined
      ? `Your appeal ${ctx.appealTitle} is off the site with its campaign`
      : draft
        ? `Your appeal ${ctx.appealTitle} is off the site for now`
        : `Your appeal ${ctx.appealTitle} has been removed`;
  const text = [
    greeting,
    '',
    `The charity has ${what((title) => `“${title}”`)}.`,
    state,
    ...(given || monthly ? ['', ...[given, monthly].filter((line) => line !== null)] : []),
    '',
    ask,
    ...footerText(ctx, site, true, closing),
  ].join('\n');
  const mailto = `<a href="mailto:${escapeHtml(news.contact)}" style="color:#07523a">${escapeHtml(news.contact)}</a>`;
  const html = layout(
    site,
    [
      escapeHtml(greeting),
      `The charity has ${what((title) => `<strong>${escapeHtml(title)}</strong>`)}. ${escapeHtml(state)}`,
      ...(given || monthly
        ? [
            [given, monthly]
              .filter((line) => line !== null)
              .map(escapeHtml)
              .join(' '),
          ]
        : []),
      `If you did not expect this, or have questions, write to the charity: ${mailto}`,
    ],
    ctx,
    true,
    closing,
  );
  return { to: ctx.to, subject, text, html };
}

/**
 * Sent when a campaign taken down is approved again and a fundraiser was told their appeal went
 * with it (decision 066): it is back, and takes gifts again; time to share it again.
 */
export function appealBackEmail(ctx: FundraiserMailContext, news: { campaignTitle: string }): MailMessage {
  const site = ctx.siteName ?? 'UK NFP';
  const greeting = ctx.firstName ? `Hello ${ctx.firstName},` : 'Hello,';
  const back = (quote: (title: string) => string) =>
    `The charity has put the campaign ${quote(news.campaignTitle)} back on the site, and with it your appeal ${quote(ctx.appealTitle)}.`;
  const share = 'It takes gifts again: share its link with the people who wanted to give.';
  const subject = `Your appeal ${ctx.appealTitle} is back on the site`;
  const text = [greeting, '', back((title) => `“${title}”`), share, ctx.appealUrl, ...footerText(ctx, site, true)].join(
    '\n',
  );
  const html = layout(
    site,
    [
      escapeHtml(greeting),
      back((title) => `<strong>${escapeHtml(title)}</strong>`),
      `${escapeHtml(share)}<br><a href="${escapeHtml(ctx.appealUrl)}" style="color:#07523a">${escapeHtml(ctx.appealUrl)}</a>`,
    ],
    ctx,
    true,
  );
  return { to: ctx.to, subject, text, html };
}
