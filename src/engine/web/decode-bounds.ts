// What every image check (png-check.ts and its siblings) shares: the size it reports and the
// most raw pixel data it will decode to measure an image.

/** A decoded image's size in pixels. */
export interface Dimensions {
  width: number;
  height: number;
}

/**
 * Decoded pixel data past this is not decoded to check it (a 64 MB bitmap is no icon or
 * preview image); such an image counts as one that does not decode.
 */
export const MAX_RAW_BYTES = 64 * 1024 * 1024;

/** Whether width x height pixels of 4 bytes each stay within MAX_RAW_BYTES. */
export function fitsRgba(width: number, height: number): boolean {
  return width > 0 && height > 0 && width * height * 4 <= MAX_RAW_BYTES;
}
