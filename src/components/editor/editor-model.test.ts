import { describe, expect, it } from 'vitest';
import {
  applyTemplate,
  campaignChoices,
  campaignFromQuery,
  type CampaignOption,
  endDateNote,
  endedCampaignNote,
  dateOrderProblem,
  defaultDates,
  emptyForm,
  type EditorForm,
  formProblems,
  isAllowedVideoUrl,
  isReady,
  listInWords,
  goalProblem,
  missingForReady,
  poundsToPence,
  redirectTarget,
  startDateNote,
  startsAfterCampaignProblem,
  toPayload,
  statusChangeNote,
} from './editor-model';

const image = {
  Key: '/images/demo/cause-1.png',
  name: 'cause-1.png',
  size: 10,
  type: 'image/png',
  url: '/images/demo/cause-1.png',
};
const filled = (overrides: Partial<EditorForm> = {}): EditorForm => ({
  ...emptyForm(new Date('2026-03-10T12:00:00')),
  title: 'Run',
  description: 'Run for water',
  goal: '250.50',
  images: [image],
  ...overrides,
});

describe('editor model', () => {
  it('takes the campaign of a new appeal from ?campaign= (short id or UUID) when it is offered', () => {
    const offered = [{ _id: '31551842-05af-49ff-acdb-a9b948e93b60' }, { _id: '029f6be3-ee4e-4648-8b65-ec6d92e02c9d' }];
    expect(campaignFromQuery('?campaign=1V5VlneMwNCmAJm78iSozo', offered)).toBe(offered[0]._id);
    expect(campaignFromQuery('?campaign=029F6BE3-EE4E-4648-8B65-EC6D92E02C9D', offered)).toBe(offered[1]._id);
    // Not offered (a draft, a typo) or absent: the general fund, as if no link had been followed.
    expect(campaignFromQuery('?campaign=2V5VlneMwNCmAJm78iSozo', offered)).toBe('');
    expect(campaignFromQuery('?campaign=nonsense', offered)).toBe('');
    expect(campaignFromQuery('', offered)).toBe('');
  });

  it('offers no campaign that has ended, except the one an appeal is under, and says when one opens (decision 068)', () => {
    // 29 November 2026, 10:00 London.
    const now = new Date('2026-11-29T10:00:00Z');
    const offered = [
      { _id: 'a', title: 'Winter Appeal', date: { from: '2026-11-01', to: '2027-01-31' } },
      { _id: 'b', title: 'Summer Swim', date: { from: '2026-06-01', to: '2026-11-28' } },
      { _id: 'c', title: 'Spring Walk', date: { from: '2027-03-01', to: null } },
      { _id: 'd', title: 'Ends today', date: { from: null, to: '2026-11-29' } },
      { _id: 'e', title: 'No dates', date: { from: null, to: null } },
    ];
    const open = [
      { value: 'a', label: 'Winter Appeal' },
      { value: 'c', label: 'Spring Walk (opens 1 Mar 2027)' },
      { value: 'd', label: 'Ends today' },
      { value: 'e', label: 'No dates' },
    ];
    expect(campaignChoices(offered, '', now)).toEqual(open);
    expect(campaignChoices(offered, 'a', now)).toEqual(open);
    // An appeal already under the ended campaign keeps it, said as such (its place in the list is kept).
    expect(campaignChoices(offered, 'b', now)).toEqual([
      open[0],
      { value: 'b', label: 'Summer Swim (ended 28 Nov 2026)' },
      ...open.slice(1),
    ]);
    // One not on the site at all (a draft or deleted campaign, decision 066), once the list has come.
    expect(campaignChoices(offered, 'gone', now)).toEqual([
      ...open,
      { value: 'gone', label: 'Its campaign (not on the site)' },
    ]);
    expect(campaignChoices([], 'gone', now)).toEqual([]);
    // Midnight in London (GMT in November) ends the 28th's campaign; at 23:59 it still ran.
    expect(campaignChoices(offered, '', new Date('2026-11-28T23:59:00Z')).map((c) => c.value)).toContain('b');
  });

  it('says beside the End date when a past day ends giving at once, or the campaign ends it sooner', () => {
    const now = new Date('2026-11-29T10:00:00Z');
    const campaign = { from: null, to: '2026-12-24' };
    expect(endDateNote('2026-11-28', 'appeal', now)).toBe(
      '28 November 2026 has passed: this appeal takes no gifts and its page says it ended. A later end date reopens it.',
    );
    expect(endDateNote('2026-11-28', 'campaign', now)).toBe(
      '28 November 2026 has passed: this campaign takes no gifts and its page says it ended. A later end date reopens it.',
    );
    // Today is the last day, not past; a date ahead says nothing.
    expect(endDateNote('2026-11-29', 'appeal', now)).toBeNull();
    expect(endDateNote('2026-12-10', 'appeal', now, campaign)).toBeNull();
    expect(endDateNote('', 'appeal', now)).toBeNull();
    // The campaign's last day comes first (or the appeal has none): its gifts end then.
    const sooner = "Its campaign takes gifts until 24 December 2026; this appeal's gifts end then too.";
    expect(endDateNote('2027-01-31', 'appeal', now, campaign)).toBe(sooner);
    expect(endDateNote('', 'appeal', now, campaign)).toBe(sooner);
    expect(endDateNote('2026-12-24', 'appeal', now, campaign)).toBeNull();
    // A campaign's own editor ignores any campaign; an ended campaign says so for its appeal.
    expect(endDateNote('2027-01-31', 'campaign', now, campaign)).toBeNull();
    expect(endDateNote('2027-01-31', 'appeal', now, { from: null, to: '2026-11-01' })).toBe(
      'Its campaign ended on 1 November 2026, so this appeal takes no gifts; its page says it ended.',
    );
  });

  it("says why a link's ended campaign is not chosen for a new appeal", () => {
    const now = new Date('2026-11-29T10:00:00Z');
    const offered = [
      { _id: '31551842-05af-49ff-acdb-a9b948e93b60', title: 'Summer Swim', date: { from: null, to: '2026-11-28' } },
      { _id: '029f6be3-ee4e-4648-8b65-ec6d92e02c9d', title: 'Winter Appeal', date: { from: null, to: null } },
    ];
    expect(endedCampaignNote('?campaign=1V5VlneMwNCmAJm78iSozo', offered, now)).toBe(
      'Summer Swim ended on 28 November 2026 and takes no new appeals. This appeal is for the general fund unless you choose another campaign.',
    );
    expect(endedCampaignNote(`?campaign=${offered[1]._id}`, offered, now)).toBeNull();
    expect(endedCampaignNote('?campaign=nonsense', offered, now)).toBeNull();
    expect(endedCampaignNote('', offered, now)).toBeNull();
  });

  it('names what Continue still waits for, in the order of the form', () => {
    const blank = emptyForm();
    expect(listInWords(missingForReady(blank, 'appeal'))).toBe('a title, a description, a goal and an image');
    expect(missingForReady(blank, 'campaign')).toContain('an organization');
    const almost = { ...blank, title: 'Run', description: 'For water.', goal: '0' };
    expect(listInWords(missingForReady(almost, 'appeal'))).toBe('a valid goal and an image');
    const done = { ...almost, goal: '250', images: [image] };
    expect(missingForReady(done, 'appeal')).toEqual([]);
    expect(isReady(done, 'appeal')).toBe(true);
  });

  it('says what is wrong with a goal as typed, and keeps it as typed', () => {
    for (const typed of ['-5', '1e12', '12.345', '0', 'lots'])
      expect(goalProblem(typed)).toBe('Enter a goal in pounds greater than £0, e.g. 500 or 99.50.');
    expect(goalProblem('1000001')).toBe('The goal can be at most £1,000,000.');
    for (const typed of ['', '500', '99.50', '1,000']) expect(goalProblem(typed)).toBeNull();
  });

  it('defaults the date range to today and 20 days later', () => {
    expect(defaultDates(new Date('2026-03-10T12:00:00'))).toEqual({ dateFrom: '2026-03-10', dateTo: '2026-03-30' });
  });

  it('converts pounds to pence and refuses anything else', () => {
    expect(poundsToPence('250.50')).toBe(25_050);
    expect(poundsToPence('£1,000')).toBe(100_000);
    expect(poundsToPence('0.1')).toBe(10);
    for (const bad of ['', 'abc', '1.234', '-5', '1e3']) expect(poundsToPence(bad)).toBeNull();
  });

  it('is ready with title, description, goal > 0, an image, and an organization for campaigns', () => {
    expect(isReady(filled(), 'appeal')).toBe(true);
    expect(isReady(filled({ title: ' ' }), 'appeal')).toBe(false);
    expect(isReady(filled({ goal: '0' }), 'appeal')).toBe(false);
    expect(isReady(filled({ images: [] }), 'appeal')).toBe(false);
    expect(isReady(filled(), 'campaign')).toBe(false);
    expect(isReady(filled({ organizationId: 'org' }), 'campaign')).toBe(true);
  });

  it('fills [[name]] in a template story and truncates the description to 150 characters', () => {
    const form = applyTemplate(
      emptyForm(),
      {
        _id: 't1',
        title: 'Bake',
        description: 'd'.repeat(200),
        story: 'Hi, [[name]]! [[name]]',
        image: null,
        campaign_id: null,
        campaign_title: null,
        retired_at: null,
      },
      'Dana Donor',
    );
    expect(form.story).toBe('Hi, Dana Donor! Dana Donor');
    expect(form.description).toHaveLength(150);
    expect(form.templateCauseId).toBe('t1');
    expect(form.campaignId).toBe('');
  });

  it("chooses a template cause's campaign while it takes appeals, unless the fundraiser chose one", () => {
    const now = new Date('2026-11-29T12:00:00Z');
    const water: CampaignOption = {
      _id: 'water',
      title: 'Clean Water',
      date: { from: '2026-01-01', to: '2027-01-31' },
    };
    const ended: CampaignOption = { _id: 'old', title: 'Old Run', date: { from: '2025-01-01', to: '2026-11-28' } };
    const cause = (campaign_id: string | null) => ({
      _id: 'run',
      title: 'Run for Clean Water',
      description: 'Run',
      story: '[[name]] runs',
      image: null,
      campaign_id,
      campaign_title: null,
      retired_at: null,
    });
    expect(applyTemplate(emptyForm(), cause('water'), 'Ann', [water, ended], now).campaignId).toBe('water');
    // A campaign page's link (or the select) already chose: that stays.
    const chosen = { ...emptyForm(), campaignId: 'other' };
    expect(applyTemplate(chosen, cause('water'), 'Ann', [water, ended], now).campaignId).toBe('other');
    // Ended, or not offered at all (taken down): the general fund, as without a campaign.
    expect(applyTemplate(emptyForm(), cause('old'), 'Ann', [water, ended], now).campaignId).toBe('');
    expect(applyTemplate(emptyForm(), cause('gone'), 'Ann', [water, ended], now).campaignId).toBe('');
  });

  it("starts with the cause's stock cover, which a different cause changes, and never over the fundraiser's own pictures", () => {
    const cause = (id: string, image: string | null) => ({
      _id: id,
      title: 'Run',
      description: 'Run',
      story: '[[name]] runs',
      image,
      campaign_id: null,
      campaign_title: null,
      retired_at: null,
    });
    const water = applyTemplate(emptyForm(), cause('water', '/images/demo/cause-1.png'), 'Ann');
    expect(water.images).toEqual([
      {
        Key: '/images/demo/cause-1.png',
        url: '/images/demo/cause-1.png',
        name: 'Water drop',
        size: 0,
        type: 'image/png',
      },
    ]);
    // Choose a different cause: its cover replaces the first one's; a cause with none leaves none.
    const heart = applyTemplate(water, cause('memory', '/images/demo/cause-4.png'), 'Ann');
    expect(heart.images.map((i) => ('Key' in i ? i.Key : i.name))).toEqual(['/images/demo/cause-4.png']);
    expect(applyTemplate(heart, cause('plain', null), 'Ann').images).toEqual([]);
    // Pictures of the fundraiser's own (an upload, or two pictures) stay as they are.
    const upload = { base64: 'data:image/png;base64,AAAA', name: 'me.png', size: 3, type: 'image/png' };
    expect(
      applyTemplate({ ...emptyForm(), images: [upload] }, cause('w', '/images/demo/cause-1.png'), 'A').images,
    ).toEqual([upload]);
    // Anything but a stock cover is not taken from a cause (the API allows only those).
    expect(applyTemplate(emptyForm(), cause('x', 'https://evil.example/x.png'), 'A').images).toEqual([]);
  });

  it('builds the API payload in pence, with status only for admins', () => {
    const payload = toPayload(filled({ story: 'By [[name]]', status: 'draft' }), 'appeal', {
      canSetStatus: false,
      name: 'Dana Donor',
    });
    expect(payload).toMatchObject({
      kind: 'appeal',
      goal: 25_050,
      campaign_id: null,
      organization_id: null,
      story: 'By Dana Donor',
    });
    expect(payload.images).toEqual([{ Key: image.Key, name: image.name, size: 10, type: 'image/png' }]);
    expect('status' in payload).toBe(false);
    expect(toPayload(filled({ status: 'draft' }), 'appeal', { canSetStatus: true, name: '' }).status).toBe('draft');
  });

  it("sends a fund's income code only for those who set codes, and only when the API answered it", () => {
    const opts = { canSetStatus: true, name: '' };
    expect(toPayload(filled({ incomeCode: ' 4100 ' }), 'campaign', { ...opts, setsCodes: true }).income_code).toBe(
      '4100',
    );
    // Empty clears it back to the organization's code.
    expect(toPayload(filled({ incomeCode: '' }), 'campaign', { ...opts, setsCodes: true }).income_code).toBe('');
    expect('income_code' in toPayload(filled({ incomeCode: '4100' }), 'appeal', { ...opts, setsCodes: false })).toBe(
      false,
    );
    // Not answered by the API (not this viewer's organization): left as it is.
    expect('income_code' in toPayload(filled({ incomeCode: null }), 'campaign', { ...opts, setsCodes: true })).toBe(
      false,
    );
  });

  it('checks video hosts and date order before saving', () => {
    expect(isAllowedVideoUrl('https://www.youtube.com/watch?v=x')).toBe(true);
    expect(isAllowedVideoUrl('https://example.com/v')).toBe(false);
    expect(formProblems(filled({ video: 'http://vimeo.com/1' }))).toEqual([
      'The video link must be an https link to YouTube, Vimeo, Loom or Wistia.',
    ]);
    expect(formProblems(filled({ dateFrom: '2026-05-02', dateTo: '2026-05-01' }))[0]).toMatch(/start date/);
  });

  it('says beside the End date when it is before the start, and Continue waits for it', () => {
    expect(dateOrderProblem('2026-05-02', '2026-05-01')).toBe('The start date must be on or before the end date.');
    expect(dateOrderProblem('2026-05-01', '2026-05-01')).toBeNull();
    expect(dateOrderProblem('2026-05-02', '')).toBeNull();
    expect(dateOrderProblem('', '2026-05-01')).toBeNull();
    const crossed = filled({ dateFrom: '2026-05-02', dateTo: '2026-05-01' });
    expect(missingForReady(crossed, 'appeal')).toEqual(['an end date on or after the start date']);
    expect(isReady(crossed, 'appeal')).toBe(false);
    expect(isReady(filled({ dateFrom: '2026-05-01', dateTo: '2026-05-01' }), 'appeal')).toBe(true);
  });

  it('says beside a Start date still ahead that gifts wait for it, and who is emailed when it opens', () => {
    // 23:30 on 30 November 2026 in London (GMT): tomorrow is 1 December.
    const now = new Date(Date.UTC(2026, 10, 30, 23, 30));
    expect(startDateNote('2026-12-01', 'appeal', now)).toBe(
      'Gifts open on 1 December 2026; until then its page says when. Whoever started it is emailed that morning, to share it.',
    );
    expect(startDateNote('2026-12-01', 'campaign', now)).toBe(
      'Gifts open on 1 December 2026; until then its page says when. Whoever started it is emailed that morning, to share it.',
    );
    for (const open of ['2026-11-30', '2026-11-01', '', 'soon']) expect(startDateNote(open, 'appeal', now)).toBeNull();
    // An appeal also waits for its campaign: the later day, named as the campaign's.
    const opensLater = { from: '2026-12-05', to: '2027-01-31' };
    expect(startDateNote('2026-12-01', 'appeal', now, opensLater)).toBe(
      'Gifts open on 5 December 2026, when its campaign opens; until then its page says when. Whoever started it is emailed that morning, to share it.',
    );
    expect(startDateNote('', 'appeal', now, opensLater)).toContain(
      'Gifts open on 5 December 2026, when its campaign opens',
    );
    expect(startDateNote('2026-12-09', 'appeal', now, opensLater)).toContain('Gifts open on 9 December 2026;');
    expect(startDateNote('', 'appeal', now, { from: '2026-11-01', to: null })).toBeNull();
    // A campaign's own note ignores any campaign days.
    expect(startDateNote('', 'campaign', now, opensLater)).toBeNull();
  });

  it("says beside the Start date when it is after the campaign's last day, and Continue waits for it", () => {
    const campaign = { from: null, to: '2026-12-31' };
    expect(startsAfterCampaignProblem('2027-01-01', 'appeal', campaign)).toBe(
      'The campaign takes gifts until 31 December 2026; an appeal starting after that could never take one.',
    );
    expect(startsAfterCampaignProblem('2026-12-31', 'appeal', campaign)).toBeNull();
    expect(startsAfterCampaignProblem('2027-01-01', 'appeal', { from: null, to: null })).toBeNull();
    expect(startsAfterCampaignProblem('2027-01-01', 'appeal')).toBeNull();
    expect(startsAfterCampaignProblem('2027-01-01', 'campaign', campaign)).toBeNull();
    const late = filled({ dateFrom: '2027-01-01', dateTo: '2027-01-10' });
    expect(missingForReady(late, 'appeal', campaign)).toEqual(["a start date within the campaign's dates"]);
    expect(isReady(late, 'appeal', campaign)).toBe(false);
    expect(isReady(late, 'appeal')).toBe(true);
  });

  it('redirects to the dashboard list, or redirectTo with {id} filled in', () => {
    expect(redirectTarget('campaign', undefined, 'abc')).toBe('/dashboard/active-campaigns');
    expect(redirectTarget('appeal', undefined, 'abc')).toBe('/dashboard/active-appeals');
    expect(redirectTarget('appeal', '/dashboard/active-appeals?created={id}&status={status}', 'abc', 'draft')).toBe(
      '/dashboard/active-appeals?created=abc&status=draft',
    );
  });
});

describe('statusChangeNote', () => {
  it("says what saving a new status emails an appeal's fundraiser", () => {
    expect(statusChangeNote('appeal', 'draft', 'approved')).toBe(
      'Saving emails the fundraiser who started it (unless that is you) that it is approved.',
    );
    expect(statusChangeNote('appeal', 'approved', 'draft')).toBe(
      'Saving emails the fundraiser who started it (unless that is you), and anyone giving to it monthly, that it is off the site.',
    );
    expect(statusChangeNote('appeal', 'approved', 'deleted')).toMatch(
      /and anyone giving to it monthly, that it is off the site\.$/,
    );
    // A draft's monthly donors were told when it left the site.
    expect(statusChangeNote('appeal', 'draft', 'deleted')).toBe(
      'Saving emails the fundraiser who started it (unless that is you) that it is off the site.',
    );
    expect(statusChangeNote('appeal', 'deleted', 'approved')).toMatch(/that it is approved\.$/);
  });

  it('says that a campaign taken down takes its appeals with it, and emails their fundraisers', () => {
    expect(statusChangeNote('campaign', 'approved', 'draft')).toBe(
      'Saving takes its appeals off the site with it, and emails their fundraisers and its monthly donors that it did.',
    );
    expect(statusChangeNote('campaign', 'approved', 'deleted')).toMatch(/^Saving takes its appeals off the site/);
    expect(statusChangeNote('campaign', 'draft', 'approved')).toBe(
      'Saving puts its live appeals back on the site, and emails the fundraisers told they went.',
    );
  });

  it('says nothing for a new item, no change, or a deleted appeal kept as a draft', () => {
    expect(statusChangeNote('campaign', 'draft', 'deleted')).toBeNull();
    expect(statusChangeNote('appeal', null, 'draft')).toBeNull();
    expect(statusChangeNote('appeal', 'approved', 'approved')).toBeNull();
    expect(statusChangeNote('appeal', 'deleted', 'draft')).toBeNull();
  });
});
