/**
 * The browser half of src/components/ShareControl.astro, once per page for every control on it
 * (listeners on the document, so controls added later work too).
 */

export const COPIED = 'Link copied';
export const COPY_BY_HAND = 'Press Ctrl+C (or Cmd+C) to copy the selected link';

const controlOf = (target: EventTarget | null) =>
  target instanceof Element ? target.closest<HTMLElement>('details.share') : null;
const linkOf = (control: HTMLElement) => control.querySelector<HTMLInputElement>('[data-share-link]');

/** Sets up every share control in the document: links resolved, copy and share-sheet buttons live. */
export function enhanceShareControls(doc: Document) {
  // Pre-rendered pages know only the path; the origin is the one the visitor is on.
  for (const control of doc.querySelectorAll<HTMLElement>('details.share[data-share-path]')) {
    const link = linkOf(control);
    if (link) link.value = new URL(control.dataset.sharePath ?? '', doc.location.origin).toString();
  }
  if (typeof navigator.share === 'function') {
    for (const button of doc.querySelectorAll<HTMLButtonElement>('details.share [data-share-sheet]'))
      button.hidden = false;
  }

  doc.addEventListener('click', async (event) => {
    const target = event.target instanceof Element ? event.target : null;
    const control = controlOf(target);
    const link = control && linkOf(control);
    if (!control || !link) return;
    if (target?.closest('[data-share-copy]')) {
      const status = control.querySelector('.share-status');
      try {
        await navigator.clipboard.writeText(link.value);
        if (status) status.textContent = COPIED;
      } catch {
        // Clipboard API refused (permissions, insecure origin): select the text for a manual copy.
        link.select();
        if (status) status.textContent = COPY_BY_HAND;
      }
    } else if (target?.closest('[data-share-sheet]')) {
      try {
        const { shareTitle, shareText } = control.dataset;
        await navigator.share({
          title: shareTitle ?? doc.title,
          ...(shareText ? { text: shareText } : {}),
          url: link.value,
        });
      } catch {
        // The visitor closed the share sheet: nothing to report.
      }
    }
  });
  // Escape closes the open panel the focus is in (or any open one) and returns focus to its button.
  doc.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return;
    const control = controlOf(event.target) ?? doc.querySelector<HTMLElement>('details.share[open]');
    if (!(control instanceof HTMLDetailsElement) || !control.open) return;
    control.open = false;
    control.querySelector('summary')?.focus();
  });
  doc.addEventListener('focusin', (event) => {
    if (event.target instanceof HTMLInputElement && event.target.matches('details.share [data-share-link]'))
      event.target.select();
  });
}
