/** Site-wide constants shown in the shell and in share previews. */
export const SITE = {
  name: 'UK NFP',
  tagline: 'Giving together for clean water, safe homes and full plates',
  contactEmail: 'hello@uknfp.org',
  social: [
    { label: 'Facebook', icon: 'facebook' },
    { label: 'Instagram', icon: 'instagram' },
    { label: 'X (Twitter)', icon: 'x' },
  ],
} as const;
