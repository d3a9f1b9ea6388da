/**
 * The donation box island (issue 5 replaces this body). Detail pages render it as
 * <DonationBox client:visible campaignId=... appealId=... title=... />.
 */
export type DonationBoxProps = { campaignId: string; appealId: string | null; title: string };

export default function DonationBox({ title }: DonationBoxProps) {
  return (
    <section className="donation-box" aria-label={`Donate to ${title}`}>
      <h2>Donate</h2>
    </section>
  );
}
