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

  if (!has('og:title')) {
    checks.push(
      title
        ? { level: 'warn', text: 'No og:title: sites fall back to the page <title>.' }
        : { level: 'fail', text: 'No title at all: neither og:title nor <title>.' },
    );
  } else checks.push({ level: 'pass', text: 'og:title is set.' });
  if (title.length > TITLE_MAX) {
    checks.push({
      level: 'warn',
      text: `Title is ${title.length} characters; over ${TITLE_MAX} it is usually cut off.`,
    });
  }

  if (!has('og:description')) {
    checks.push(
      description
        ? { level: 'warn', text: 'No og:description: sites fall back to the meta description.' }
        : { level: 'fail', text: 'No description at all: neither og:description nor meta.' },
    );
  } else checks.push({ level: 'pass', text: 'og:description is set.' });
  if (description.length > DESCRIPTION_MAX) {
    checks.push({
      level: 'warn',
      text: `Description is ${description.length} characters; over ${DESCRIPTION_MAX} it is usually cut off.`,
    });
  }

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
