/** A shape of an icon: a path's `d`, or a circle, rectangle (x, y, width, height, corner) or ellipse. */
type Shape =
  | string
  | { circle: [number, number, number] }
  | { rect: [number, number, number, number, number] }
  | { ellipse: [number, number, number, number] };

/** The dashboard's icons, drawn on a 24 x 24 grid with a 2px round stroke. */
const ICONS = {
  home: ['M3 11l9-8 9 8v9a1 1 0 0 1-1 1h-5v-6H9v6H4a1 1 0 0 1-1-1z'],
  user: [{ circle: [12, 8, 4] }, 'M4 21c0-4 4-6 8-6s8 2 8 6'],
  heart: ['M12 21s-8-5-8-11a5 5 0 0 1 8-4 5 5 0 0 1 8 4c0 6-8 11-8 11z'],
  megaphone: ['M3 10v4h3l6 4V6L6 10zM16 8a5 5 0 0 1 0 8'],
  help: [{ circle: [12, 12, 9] }, 'M9.5 9a2.5 2.5 0 1 1 3.5 2.3c-.7.3-1 .9-1 1.7M12 17h.01'],
  mail: [{ rect: [3, 5, 18, 14, 2] }, 'M3 7l9 6 9-6'],
  flag: ['M5 21V4h11l-2 4 2 4H5'],
  users: [
    { circle: [9, 8, 3.5] },
    'M2 20c0-3.5 3-5.5 7-5.5s7 2 7 5.5M16 4.5a3.5 3.5 0 0 1 0 7M22 20c0-2.6-1.7-4.4-4.2-5.1',
  ],
  coins: [{ ellipse: [12, 6, 7, 3] }, 'M5 6v6c0 1.7 3.1 3 7 3s7-1.3 7-3V6M5 12v6c0 1.7 3.1 3 7 3s7-1.3 7-3v-6'],
  building: [{ rect: [4, 3, 16, 18, 1] }, 'M9 7h2M13 7h2M9 11h2M13 11h2M9 15h2M13 15h2'],
  panel: [{ rect: [3, 4, 18, 16, 2] }, 'M9 4v16'],
  sun: [
    { circle: [12, 12, 4] },
    'M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4',
  ],
  moon: ['M20 14.5A8 8 0 1 1 9.5 4a6.5 6.5 0 0 0 10.5 10.5z'],
  monitor: [{ rect: [3, 4, 18, 12, 2] }, 'M8 20h8M12 16v4'],
  loader: ['M12 3a9 9 0 1 0 9 9'],
  chevronDown: ['M6 9l6 6 6-6'],
  chevronLeft: ['M15 6l-6 6 6 6'],
  chevronRight: ['M9 6l6 6-6 6'],
  chevronsLeft: ['M11 6l-6 6 6 6M18 6l-6 6 6 6'],
  chevronsRight: ['M13 6l6 6-6 6M6 6l6 6-6 6'],
  sort: ['M8 9l4-4 4 4M16 15l-4 4-4-4'],
  plus: ['M12 5v14M5 12h14'],
  more: [{ circle: [5, 12, 1.5] }, { circle: [12, 12, 1.5] }, { circle: [19, 12, 1.5] }],
  download: ['M12 4v11M7 10l5 5 5-5M5 20h14'],
  search: [{ circle: [11, 11, 7] }, 'M20 20l-4-4'],
  calendar: [{ rect: [3, 5, 18, 16, 2] }, 'M3 10h18M8 3v4M16 3v4'],
  star: ['M12 3l2.7 5.6 6.1.9-4.4 4.3 1 6.1L12 17l-5.4 2.9 1-6.1L3.2 9.5l6.1-.9z'],
  card: [{ rect: [2, 5, 20, 14, 2] }, 'M2 10h20'],
  bell: ['M6 16V11a6 6 0 1 1 12 0v5l2 2H4zM10 21h4'],
  book: ['M4 4h7a3 3 0 0 1 3 3v13a2 2 0 0 0-2-2H4zM20 4h-4a2 2 0 0 0-2 2'],
  settings: [
    { circle: [12, 12, 3] },
    'M19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-1.8-.3 1.7 1.7 0 0 0-1 1.5V21a2 2 0 1 1-4 0v-.1a1.7 1.7 0 0 0-1.1-1.5 1.7 1.7 0 0 0-1.8.3l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1a1.7 1.7 0 0 0 .3-1.8 1.7 1.7 0 0 0-1.5-1H3a2 2 0 1 1 0-4h.1a1.7 1.7 0 0 0 1.5-1.1 1.7 1.7 0 0 0-.3-1.8l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1a1.7 1.7 0 0 0 1.8.3H9a1.7 1.7 0 0 0 1-1.5V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 1 1.5 1.7 1.7 0 0 0 1.8-.3l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0-.3 1.8V9a1.7 1.7 0 0 0 1.5 1H21a2 2 0 1 1 0 4h-.1a1.7 1.7 0 0 0-1.5 1z',
  ],
  x: ['M6 6l12 12M18 6L6 18'],
  arrowLeft: ['M19 12H5M11 6l-6 6 6 6'],
  check: ['M5 12l5 5 9-10'],
  copy: [{ rect: [8, 8, 13, 13, 2] }, 'M16 8V5a2 2 0 0 0-2-2H5a2 2 0 0 0-2 2v9a2 2 0 0 0 2 2h3'],
} satisfies Record<string, Shape[]>;

export type IconName = keyof typeof ICONS;

function ShapeElement({ shape }: { shape: Shape }) {
  if (typeof shape === 'string') return <path d={shape} />;
  if ('circle' in shape) {
    const [cx, cy, r] = shape.circle;
    return <circle cx={cx} cy={cy} r={r} />;
  }
  if ('ellipse' in shape) {
    const [cx, cy, rx, ry] = shape.ellipse;
    return <ellipse cx={cx} cy={cy} rx={rx} ry={ry} />;
  }
  const [x, y, width, height, rx] = shape.rect;
  return <rect x={x} y={y} width={width} height={height} rx={rx || undefined} />;
}

export function Icon({ name, size = 20, className }: { name: IconName; size?: number; className?: string }) {
  return (
    <svg
      className={className}
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {ICONS[name].map((shape) => (
        <ShapeElement key={JSON.stringify(shape)} shape={shape} />
      ))}
    </svg>
  );
}
