/**
 * Gift Aid wording and rules. Browser-safe: the donation box imports this module.
 */

/** HMRC's model declaration for one charity; stored verbatim with every declaration a donor accepts. */
export function giftAidDeclaration(charityLegalName: string): string {
  return (
    'I want to Gift Aid my donation and any donations I make in the future or have made in the past 4 years to ' +
    `${charityLegalName}. I am a UK taxpayer and understand that if I pay less Income Tax and/or Capital Gains Tax than the ` +
    'amount of Gift Aid claimed on all my donations in that tax year it is my responsibility to pay any difference.'
  );
}

/** The platform's own charity, the receiver when no organization says otherwise. */
export const DEFAULT_CHARITY_NAME = 'UK NFP';

/** The declaration for the default charity (kept for callers that have no organization at hand). */
export const GIFT_AID_DECLARATION = giftAidDeclaration(DEFAULT_CHARITY_NAME);

export const GIFT_AID_BOOST_TEXT = 'Boost your donation by 25p of Gift Aid for every £1 you donate';
