// Images for a preview panel, within caps: data: URIs the page inlined are decoded here (no
// network); every other image comes through the meta service, so with the remote backend the
// editor never contacts a page's image hosts. Each slot is an image or the reason it is not.
import { toLookupError, type ErrorCode } from '../contract/errors';
import type { CallOptions, MetaService } from '../contract/services';
import { decodeDataUri, IMAGE_BYTES, measureImage, MIME_BY_FORMAT } from '../engine/web/image';

export type PanelImage =
  | { dataUri: string; width: number; height: number; format: string }
  | { code: ErrorCode; message: string };

/** A panel view shows at most this many bytes of images in all. */
export const PANEL_IMAGE_BUDGET = 6 * 1024 * 1024;
const CONCURRENCY = 4;

export async function panelImage(
  meta: MetaService,
  url: string,
  call: CallOptions = {},
): Promise<PanelImage> {
  try {
    if (/^data:/i.test(url)) return fromDataUri(url);
    const image = await meta.image({ url }, call);
    return {
      dataUri: image.data_uri,
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

/** Several images, a few at a time, until the view's budget is spent. */
export async function panelImages(
  meta: MetaService,
  urls: string[],
  call: CallOptions = {},
): Promise<Record<string, PanelImage>> {
  const out: Record<string, PanelImage> = {};
  const queue = [...new Set(urls)];
  let spent = 0;
  const worker = async (): Promise<void> => {
    for (let url = queue.shift(); url !== undefined; url = queue.shift()) {
      if (spent >= PANEL_IMAGE_BUDGET) {
        out[url] = { code: 'response_too_large', message: 'Image budget of this view is spent' };
        continue;
      }
      const slot = await panelImage(meta, url, call);
      if ('dataUri' in slot) spent += slot.dataUri.length;
      out[url] = slot;
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, queue.length) }, worker));
  return out;
}

function fromDataUri(uri: string): PanelImage {
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
