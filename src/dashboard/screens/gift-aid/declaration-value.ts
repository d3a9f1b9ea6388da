import type { GiftAidValue } from '../../../components/donation/GiftAidFields';

type Declared = Omit<GiftAidValue, 'title'> & { title: string | null };

/** A declaration on record as the Gift Aid fields edit it. */
export const declarationValue = (d: Declared): GiftAidValue => ({
  title: d.title ?? '',
  first_name: d.first_name,
  last_name: d.last_name,
  house: d.house,
  address: d.address,
  postcode: d.postcode,
});
