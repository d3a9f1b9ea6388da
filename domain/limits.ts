/** Business limits (spec section 9 and the decisions that tightened them). */

/** Smallest and largest card or manual gift, in pence (£1 to £25,000). */
export const MIN_DONATION_PENCE = 100;
export const MAX_DONATION_PENCE = 2_500_000;

export const LOGIN_CODE_LENGTH = 6;
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const TABLE_PAGE_SIZES = [10, 20, 30, 40, 50] as const;
/** Largest page any list endpoint returns. */
export const MAX_PAGE_SIZE = 100;
/** D1 refuses LIKE patterns over 50 bytes ("pattern too complex"); search terms stay below it. */
export const MAX_SEARCH_TERM_LENGTH = 40;

/** A campaign or appeal, as the editor and the API both check it (spec sections 3, 5 and 9). */
export const MAX_CAMPAIGN_IMAGES = 9;
export const MAX_CAMPAIGN_TITLE = 120;
export const DESCRIPTION_MAX_LENGTH = 150;
export const MAX_CAMPAIGN_STORY = 20_000;
/** A template cause's story: half an appeal's, leaving room for the names [[name]] becomes (MAX_CAMPAIGN_STORY). */
export const MAX_TEMPLATE_STORY = 10_000;
/** £1,000,000 in pence. */
export const MAX_CAMPAIGN_GOAL_PENCE = 100_000_000;
/** A new campaign or appeal saved without dates runs from today for this many days. */
export const DEFAULT_CAMPAIGN_DAYS = 20;
