/**
 * Brings a place in the lesson into view and gives it keyboard focus, so that "Learn why" lands
 * a keyboard or screen-reader user on the question itself, not at the top of the page.
 */
export function goTo(anchor: string | undefined): boolean {
  const target = anchor ? document.getElementById(anchor) : document.querySelector<HTMLElement>('h1');
  if (!target) return false;
  for (const previous of document.querySelectorAll('[aria-current="location"]'))
    previous.removeAttribute('aria-current');
  target.setAttribute('aria-current', 'location');
  if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
  target.scrollIntoView({ block: 'start' });
  target.focus({ preventScroll: true });
  return true;
}
