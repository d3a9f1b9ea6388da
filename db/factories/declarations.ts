import { giftAidDeclaration } from '../../domain';
import type { Db } from '../client';
import { giftAidDeclarations } from '../schema';

type DeclarationInsert = typeof giftAidDeclarations.$inferInsert;
export type DeclarationFields = Partial<DeclarationInsert> & { donorId: string };

/** A Gift Aid declaration by `donorId`, made online with the legacy one-line address unless `fields` say otherwise. */
export function giftAidDeclarationRow(fields: DeclarationFields): DeclarationInsert {
  return {
    fullName: 'Test User',
    homeAddress: '1 High Street',
    postcode: 'LS1 4AP',
    declarationText: 'I am a UK taxpayer',
    ...fields,
  };
}

export async function createGiftAidDeclaration(db: Db, fields: DeclarationFields) {
  const [row] = await db.insert(giftAidDeclarations).values(giftAidDeclarationRow(fields)).returning();
  return row;
}

type Declarant = { firstName: string; lastName: string; address: string; city: string; postalCode: string };

/**
 * The name and address fields of a declaration made by `person` on `madeAt`, with the HMRC fields split
 * ("12 High Street" → house "12"). It names the charity that receives the gift it came with (the
 * campaign's organization), as the donation box's does; never the platform's default name.
 */
export function declarantFields(person: Declarant, madeAt: Date, charityName: string) {
  const [house, ...street] = person.address.split(' ');
  return {
    fullName: `${person.firstName} ${person.lastName}`,
    homeAddress: `${person.address}, ${person.city}`,
    postcode: person.postalCode,
    declarationText: giftAidDeclaration(charityName),
    createdAt: madeAt,
    declaredAt: madeAt,
    firstName: person.firstName,
    lastName: person.lastName,
    house,
    address: [street.join(' '), person.city].filter(Boolean).join(', '),
  };
}
