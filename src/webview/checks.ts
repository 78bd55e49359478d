// What people check before sharing a link: the tags a chat or social site reads for its card.
// Pure; unit-tested.
import type { ImageSlot, PreviewView } from '../protocol';

export type CheckLevel = 'pass' | 'warn' | 'fail';

export interface Check {
  level: CheckLevel;
  text: string;
}

export const TITLE_MAX = 60;
export const DESCRIPTION_MAX = 160;
export const IMAGE_MIN = 200;
export const IMAGE_RECOMMENDED = { width: 1200, height: 630 };

/** The strings a card shows, with the fallbacks sites use when og: tags are missing. */
export function cardText(view: PreviewView): {
  title: string;
  description: string;
  siteName: string;
} {
  const data = view.data;
  const og = (key: string): string => {
    const v = data?.open_graph[key];
    return typeof v === 'string' ? v.trim() : '';
  };
  const tw = (key: string): string => data?.twitter?.[key]?.trim() ?? '';
  return {
    title: og('og:title') || tw('twitter:title') || data?.page_title.trim() || '',
    description:
      og('og:description') || tw('twitter:description') || data?.page_description.trim() || '',
    siteName: og('og:site_name') || data?.application_name.trim() || hostOf(view),
  };
}

export function previewChecks(view: PreviewView): Check[] {
  const data = view.data;
  if (!data) return [];
  const checks: Check[] = [];
  const has = (key: string) => {
    const v = data.open_graph[key];
    return typeof v === 'string' ? v.trim() !== '' : Array.isArray(v) && v.length > 0;
  };
  const { title, description } = cardText(view);

  checks.push(
    ...textChecks(has('og:title'), title, {
      tag: 'og:title',
      name: 'Title',
      max: TITLE_MAX,
      fallback: 'No og:title: sites fall back to the page <title>.',
      none: 'No title at all: neither og:title nor <title>.',
    }),
    ...textChecks(has('og:description'), description, {
      tag: 'og:description',
      name: 'Description',
      max: DESCRIPTION_MAX,
      fallback: 'No og:description: sites fall back to the meta description.',
      none: 'No description at all: neither og:description nor meta.',
    }),
  );

  checks.push(...imageChecks(has('og:image'), view.image));

  if (!data.twitter?.['twitter:card']) {
    checks.push({
      level: 'warn',
      text: 'No twitter:card: X/Twitter shows a small summary card at most.',
    });
  }
  if (!has('og:url') && !data.canonical_url) {
    checks.push({ level: 'warn', text: 'No og:url or canonical link: shares may split.' });
  }
  if (!data.icon_url) checks.push({ level: 'warn', text: 'No favicon found.' });
  return checks;
}

interface TextRule {
  tag: string;
  name: string;
  max: number;
  /** said when the tag is missing but the page has a fallback */
  fallback: string;
  /** said when there is neither */
  none: string;
}

/** A text card field: its Open Graph tag set (or the fallback), and not too long to show. */
function textChecks(declared: boolean, text: string, rule: TextRule): Check[] {
  const checks: Check[] = [];
  if (declared) checks.push({ level: 'pass', text: `${rule.tag} is set.` });
  else
    checks.push(text ? { level: 'warn', text: rule.fallback } : { level: 'fail', text: rule.none });
  if (text.length > rule.max) {
    checks.push({
      level: 'warn',
      text: `${rule.name} is ${text.length} characters; over ${rule.max} it is usually cut off.`,
    });
  }
  return checks;
}

function imageChecks(declared: boolean, image: ImageSlot | undefined): Check[] {
  if (!declared) {
    return [
      image && 'dataUri' in image
        ? { level: 'warn', text: 'No og:image: only twitter:image is set.' }
        : { level: 'fail', text: 'No og:image: the card has no picture.' },
    ];
  }
  if (!image) return [{ level: 'fail', text: 'og:image is not a usable URL.' }];
  if (!('dataUri' in image)) {
    return [{ level: 'fail', text: `og:image could not be loaded: ${image.message}` }];
  }
  const { width, height } = image;
  if (width < IMAGE_MIN || height < IMAGE_MIN) {
    return [
      {
        level: 'fail',
        text: `Image is ${width}×${height}; under ${IMAGE_MIN}×${IMAGE_MIN} most sites ignore it.`,
      },
    ];
  }
  if (width < IMAGE_RECOMMENDED.width || height < IMAGE_RECOMMENDED.height) {
    return [
      {
        level: 'warn',
        text: `Image is ${width}×${height}; ${IMAGE_RECOMMENDED.width}×${IMAGE_RECOMMENDED.height} is recommended for large cards.`,
      },
    ];
  }
  const ratio = width / height;
  if (Math.abs(ratio - 1.91) > 0.25) {
    return [
      {
        level: 'warn',
        text: `Image is ${width}×${height}; a 1.91:1 ratio avoids cropping in large cards.`,
      },
    ];
  }
  return [{ level: 'pass', text: `Image is ${width}×${height}.` }];
}

function hostOf(view: PreviewView): string {
  const url = view.data?.resolved_url || view.target;
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
}
