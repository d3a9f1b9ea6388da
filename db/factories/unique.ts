let counter = 0;

/** A short string no other factory call in this process returns: for emails, names and keys that must not clash. */
export const unique = () => `${Date.now().toString(36)}${(++counter).toString(36)}`;
