/**
 * Previous/next buttons for the scroll-snap image carousels (ImageCarousel.astro). Touch and
 * trackpad users swipe; a mouse has no sideways scroll, so it gets buttons. They ship hidden and
 * show once this script runs (absolutely placed: nothing moves when they appear).
 */
export function enhanceSnapArrows(doc: Document) {
  for (const carousel of doc.querySelectorAll<HTMLElement>('[data-snap-carousel]')) {
    const track = carousel.querySelector<HTMLElement>('.snap-track');
    const prev = carousel.querySelector<HTMLButtonElement>('[data-snap-prev]');
    const next = carousel.querySelector<HTMLButtonElement>('[data-snap-next]');
    if (!track || !prev || !next || carousel.dataset.snapReady) continue;
    carousel.dataset.snapReady = 'true';
    const update = () => {
      prev.disabled = track.scrollLeft <= 1;
      next.disabled = track.scrollLeft + track.clientWidth >= track.scrollWidth - 1;
    };
    const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    const step = (direction: 1 | -1) =>
      track.scrollBy({ left: direction * track.clientWidth, behavior: reducedMotion ? 'auto' : 'smooth' });
    prev.addEventListener('click', () => step(-1));
    next.addEventListener('click', () => step(1));
    track.addEventListener('scroll', update, { passive: true });
    // The track starts at its first slide and holds more than one (else no buttons): the first state
    // is known without asking for the track's sizes, which would force a layout while the page loads.
    prev.disabled = true;
    next.disabled = false;
    prev.hidden = false;
    next.hidden = false;
  }
}
