/**
 * What a call answers when the server could not be reached (src/lib/api.ts) or the call's own code
 * could not be fetched (src/stores/auth.ts). A module of its own: the header's static chunk takes
 * this line without the API client or its message wording.
 */
export const UNREACHABLE_MESSAGE = 'Could not reach the server. Check your connection and try again.';
