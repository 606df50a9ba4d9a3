/** A piece of the page's text whose colour is too close to what is behind it. */
export interface LowContrast {
  text: string;
  ratio: number;
  color: string;
  background: string;
}

/**
 * Runs in the page: every visible piece of text against the background it is drawn on, both
 * taken from the computed styles (colours with alpha composited over what lies beneath, up to
 * the page's own background). Returns the pieces under WCAG AA for normal text (4.5:1), and how
 * many pieces were measured. Disabled controls are exempt, as WCAG exempts them.
 */
export function lowContrastText(root: Element): { measured: number; failures: LowContrast[] } {
  type Rgba = [number, number, number, number];
  const parse = (value: string): Rgba => {
    const parts = /rgba?\(([^)]+)\)/
      .exec(value)?.[1]
      ?.split(/[\s,/]+/)
      .filter(Boolean)
      .map(Number);
    if (!parts || parts.length < 3) throw new Error(`Unreadable colour ${value}`);
    return [parts[0], parts[1], parts[2], parts[3] ?? 1];
  };
  const over = (top: Rgba, bottom: Rgba): Rgba => {
    const alpha = top[3] + bottom[3] * (1 - top[3]);
    if (alpha === 0) return [0, 0, 0, 0];
    const mix = (index: number) => (top[index] * top[3] + bottom[index] * bottom[3] * (1 - top[3])) / alpha;
    return [mix(0), mix(1), mix(2), alpha];
  };
  const luminance = ([r, g, b]: Rgba) => {
    const channel = (value: number) => {
      const c = value / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  };
  const backgroundOf = (element: Element): Rgba => {
    const layers: Rgba[] = [];
    for (let current: Element | null = element; current; current = current.parentElement) {
      const layer = parse(getComputedStyle(current).backgroundColor);
      if (layer[3] > 0) layers.push(layer);
      if (layer[3] === 1) break;
    }
    return layers.reduceRight<Rgba>((below, layer) => over(layer, below), [255, 255, 255, 1]);
  };
  const opacityOf = (element: Element) => {
    let opacity = 1;
    for (let current: Element | null = element; current; current = current.parentElement)
      opacity *= Number(getComputedStyle(current).opacity);
    return opacity;
  };
  const failures: LowContrast[] = [];
  let measured = 0;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const element = node.parentElement;
    if (!element || !node.textContent?.trim()) continue;
    if (element.closest('button:disabled, [aria-hidden="true"]')) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const box = range.getBoundingClientRect();
    if (box.width === 0 || box.height === 0 || getComputedStyle(element).visibility === 'hidden') continue;
    const background = backgroundOf(element);
    const color = parse(getComputedStyle(element).color);
    const drawn = over([color[0], color[1], color[2], color[3] * opacityOf(element)], background);
    const [lighter, darker] = [luminance(drawn), luminance(background)].sort((a, b) => b - a);
    const ratio = (lighter + 0.05) / (darker + 0.05);
    measured += 1;
    if (ratio < 4.5) {
      failures.push({
        text: node.textContent.trim().slice(0, 60),
        ratio: Math.round(ratio * 100) / 100,
        color: getComputedStyle(element).color,
        background: `rgba(${background.map((value) => Math.round(value)).join(', ')})`,
      });
    }
  }
  return { measured, failures };
}
