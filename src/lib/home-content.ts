/** Spec section 9: the head teacher's letter figures (pounds). */
export const LETTER = {
  raisedLastYear: 22_000,
  goal: 50_000,
  results: [
    { value: 5, label: 'prizes for pupils' },
    { value: 11, label: 'water pumps' },
    { value: 7, label: 'homes built' },
    { value: 11, label: 'medical cases' },
    { value: 165, label: 'people fed' },
  ],
} as const;

/** The home page video when no campaign has one (the seed's first campaign uses this one). */
export const DEFAULT_VIDEO_ID = 'aqz-KE-bpKQ';

export const CALLS_TO_ACTION = [
  {
    title: 'Give clean water',
    text: 'A pump serves around 300 people for decades.',
    image: '/images/demo/cause-1.png',
  },
  { title: 'Feed a family', text: 'Food parcels and hot meals through the winter.', image: '/images/demo/cause-2.png' },
  {
    title: 'Build a safe home',
    text: 'Raised, insulated homes for families after the floods.',
    image: '/images/demo/cause-3.png',
  },
] as const;
