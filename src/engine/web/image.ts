// Fetching and measuring images within the caps: icon probes and the data: URIs the panel
// shows (the webview loads nothing from the network itself).
import { imageSize } from 'image-size';
import { LookupError } from '../../contract/errors';
import { normalizeUrl } from '../names';
import { header, withSession, type WebOptions, type WebSession } from './fetcher';
import { discard } from './fetcher';
import { avifSize, isAvif } from './avif-check';
import { bmpSize, isBmp } from './bmp-check';
import type { Dimensions } from './decode-bounds';
import { gifSize, isGif } from './gif-check';
import { icoKind, icoSize } from './ico-check';
import { isJpeg, jpegSize } from './jpeg-check';
import { isPng, pngSize } from './png-check';
import { isWebp, webpSize } from './webp-check';

export const IMAGE_ACCEPT = 'image/avif,image/webp,image/png,image/svg+xml,image/*;q=0.8,*/*;q=0.5';

export interface ImageSize {
  width: number;
  height: number;
  /** image-size's type names: png, ico, cur, jpg, gif, webp, bmp, avif, svg */
  format: string;
}

/** The media type of each format measured; the ones a webview may show as data: URIs. */
export const MIME_BY_FORMAT: Readonly<Record<string, string>> = {
  png: 'image/png',
  ico: 'image/x-icon',
  cur: 'image/x-icon',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  bmp: 'image/bmp',
  avif: 'image/avif',
};

/**
 * The raster formats an icon or a preview image can be, each with the check that reports its
 * size only when its data decodes (or, for WebP and AVIF, holds up structurally: see
 * webp-check.ts and avif-check.ts), never from a header alone. A PNG whose header claims
 * 2147483647 x 2147483647 pixels with nothing behind it has no size; nor has any format that
 * is not checked here (TIFF, HEIC, PSD, ...).
 */
const RASTER_CHECKS: ReadonlyArray<{
  format: string;
  is: (bytes: Uint8Array) => boolean;
  size: (bytes: Uint8Array) => Dimensions | undefined;
}> = [
  { format: 'png', is: isPng, size: pngSize },
  { format: 'jpg', is: isJpeg, size: jpegSize },
  { format: 'gif', is: isGif, size: gifSize },
  { format: 'webp', is: isWebp, size: webpSize },
  { format: 'bmp', is: isBmp, size: bmpSize },
  { format: 'ico', is: (b) => icoKind(b) === 'ico', size: icoSize },
  { format: 'cur', is: (b) => icoKind(b) === 'cur', size: icoSize },
  { format: 'avif', is: isAvif, size: avifSize },
];

/**
 * Decoded pixel size; for an ICO with several images, the largest that decodes. Undefined if
 * not an image, and for a raster image whose data does not decode, whatever its header claims.
 * SVG is text: its size is what its width, height or viewBox say (image-size reads them).
 */
export function measureImage(bytes: Uint8Array): ImageSize | undefined {
  if (bytes.length === 0) return undefined;
  const raster = RASTER_CHECKS.find((check) => check.is(bytes));
  if (raster) {
    try {
      const size = raster.size(bytes);
      return size && { width: size.width, height: size.height, format: raster.format };
    } catch {
      // The checks read within bounds (image-check.test.ts fuzzes them); should one still
      // throw on some input, that image is one that did not decode, not a failed operation.
      return undefined;
    }
  }
  // image-size reads through a DataView over `bytes.buffer` that is not bounded by the view's
  // length, so a truncated image inside Node's shared Buffer pool would be measured from the
  // neighbouring bytes. A view that owns its whole buffer makes such reads throw instead.
  const own =
    bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
      ? bytes
      : new Uint8Array(bytes);
  try {
    const result = imageSize(own);
    if (result.type !== 'svg') return undefined;
    const { width, height } = result;
    if (!(width > 0 && height > 0 && Number.isFinite(width * height))) return undefined;
    return { width: Math.round(width), height: Math.round(height), format: 'svg' };
  } catch {
    return undefined;
  }
}

export interface FetchedImage {
  url: string;
  status: number;
  bytes: Buffer;
  contentType: string;
}

/** Fetches an image (following its own redirects) within maxImageBytes. */
export async function fetchImage(session: WebSession, url: URL): Promise<FetchedImage> {
  const end = await session.follow(url, { accept: IMAGE_ACCEPT });
  if (!end.response) {
    throw new LookupError('upstream_error', `${url.hostname} redirects the image without end`);
  }
  if (end.status < 200 || end.status >= 300) {
    discard(end.response);
    return { url: end.url.href, status: end.status, bytes: Buffer.alloc(0), contentType: '' };
  }
  const bytes = await session.readAll(end, session.limits.maxImageBytes);
  const contentType = header(end.headers, 'content-type') ?? '';
  return { url: end.url.href, status: end.status, bytes, contentType };
}

/** Decodes a data: URI (icons inlined in the page), within `maxBytes`. */
export function decodeDataUri(uri: string, maxBytes: number): Buffer | undefined {
  const match = /^data:([^,]*?)(;base64)?,(.*)$/is.exec(uri);
  if (!match) return undefined;
  const payload = match[3] ?? '';
  if (payload.length > maxBytes * 2) return undefined;
  const bytes = match[2]
    ? Buffer.from(payload, 'base64')
    : Buffer.from(decodeURIComponent(payload), 'utf8');
  return bytes.length > maxBytes ? undefined : bytes;
}

export interface DataUriImage extends ImageSize {
  /** where the image was found, after its redirects */
  url: string;
  dataUri: string;
}

/** The largest image a preview shows (one icon or og:image); the service's `image` cap. */
export const IMAGE_BYTES = 512 * 1024;

/**
 * Fetches an image and returns it as a data: URI for the panel, with its decoded size.
 * Anything that does not decode as an image is refused, so no page HTML reaches the panel.
 */
export async function fetchImageAsDataUri(
  url: string,
  options?: WebOptions,
): Promise<DataUriImage> {
  return withSession(options, async (session) => {
    const target = normalizeUrl(url);
    const image = await fetchImage(session, target);
    if (image.status === 404 || image.status === 410) {
      throw new LookupError('not_found', `${target.hostname} has no image at that address`);
    }
    if (image.status < 200 || image.status >= 300) {
      throw new LookupError('upstream_error', `${target.hostname} answered HTTP ${image.status}`);
    }
    const size = measureImage(image.bytes);
    const mime = size ? MIME_BY_FORMAT[size.format] : undefined;
    if (!size || !mime) {
      throw new LookupError('upstream_error', `${target.hostname} did not send an image`);
    }
    return {
      ...size,
      url: image.url,
      dataUri: `data:${mime};base64,${image.bytes.toString('base64')}`,
    };
  });
}
