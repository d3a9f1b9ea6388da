/** Who an account is, as every answer about a person starts (`AccountSchema`: the signed-in user, a donor). */
export const toAccountDto = (person: { id: string; email: string; firstName: string; lastName: string }) => ({
  _id: person.id,
  email: person.email,
  name: { first_name: person.firstName, last_name: person.lastName },
});
