import { useEffect, useState } from 'react';

/** The browser's default text size: the charts' sizes below are for it. */
const DEFAULT_ROOT_PX = 16;

/**
 * How much larger the page's text is than the default: 2 when the reader asks for 200% text
 * (WCAG 1.4.4). Recharts draws its labels as SVG text in px and measures them for the axes, so
 * they do not follow the root font size by themselves; the charts multiply their sizes by this.
 * Read on mount and again when the window resizes (where a browser's zoom or text size shows).
 */
export function useTextScale(): number {
  const [scale, setScale] = useState(1);
  useEffect(() => {
    const read = () => {
      const px = Number.parseFloat(getComputedStyle(document.documentElement).fontSize);
      setScale(Number.isFinite(px) && px > 0 ? Math.max(1, px / DEFAULT_ROOT_PX) : 1);
    };
    read();
    window.addEventListener('resize', read);
    return () => window.removeEventListener('resize', read);
  }, []);
  return scale;
}

/** A chart's sizes at a text scale: the tick labels' style, and an axis's or the chart's px sizes grown with the text. */
export function chartSizes(scale: number) {
  return {
    tick: { fill: 'var(--ink)', fontSize: Math.round(12 * scale) },
    px: (size: number) => Math.round(size * scale),
  };
}
