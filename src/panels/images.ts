// Images for the panel, fetched by the host within caps and handed over as data: URIs: the
// webview's CSP allows `img-src data:` only, so it never reaches the network itself.
import { toLookupError } from '../engine/errors';
import {
  decodeDataUri,
  fetchImageAsDataUri,
  measureImage,
  MIME_BY_FORMAT,
} from '../engine/web/image';
import type { ImageSlot } from '../protocol';

/** One image at most this big; a panel view at most TOTAL_BYTES of images. */
export const IMAGE_BYTES = 512 * 1024;
export const TOTAL_BYTES = 6 * 1024 * 1024;
const CONCURRENCY = 4;

export async function fetchPanelImage(url: string, signal?: AbortSignal): Promise<ImageSlot> {
  try {
    if (/^data:/i.test(url)) return fromDataUri(url);
    const image = await fetchImageAsDataUri(url, {
      ...(signal ? { signal } : {}),
      limits: { maxImageBytes: IMAGE_BYTES },
    });
    return {
      dataUri: image.dataUri,
      width: image.width,
      height: image.height,
      format: image.format,
    };
  } catch (err) {
    const error = toLookupError(err);
    if (error.code === 'cancelled') throw error;
    return { code: error.code, message: error.detail };
  }
}

/** Fetches several images, a few at a time, until the total budget is spent. */
export async function fetchPanelImages(
  urls: string[],
  signal?: AbortSignal,
): Promise<Record<string, ImageSlot>> {
  const out: Record<string, ImageSlot> = {};
  const queue = [...new Set(urls)];
  let spent = 0;
  const worker = async (): Promise<void> => {
    for (let url = queue.shift(); url !== undefined; url = queue.shift()) {
      if (spent >= TOTAL_BYTES) {
        out[url] = { code: 'response_too_large', message: 'Image budget of this view is spent' };
        continue;
      }
      const slot = await fetchPanelImage(url, signal);
      if ('dataUri' in slot) spent += slot.dataUri.length;
      out[url] = slot;
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, queue.length) }, worker));
  return out;
}

function fromDataUri(uri: string): ImageSlot {
  const bytes = decodeDataUri(uri, IMAGE_BYTES);
  if (!bytes) return { code: 'response_too_large', message: 'Inline image too large or malformed' };
  const size = measureImage(bytes);
  const mime = size ? MIME_BY_FORMAT[size.format] : undefined;
  if (!size || !mime) return { code: 'upstream_error', message: 'Inline data is not an image' };
  return {
    dataUri: `data:${mime};base64,${bytes.toString('base64')}`,
    width: size.width,
    height: size.height,
    format: size.format,
  };
}
