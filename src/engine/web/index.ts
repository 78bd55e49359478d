// The web metadata engine as the services, the command line and the extension use it.
export { redirects } from './redirects';
export { icons } from './icons';
export { unfurl, previewFromHead } from './unfurl';
export { fetchImageAsDataUri, type DataUriImage } from './image';
export {
  DEFAULT_WEB_LIMITS,
  USER_AGENT,
  type LookupFunction,
  type WebLimits,
  type WebOptions,
} from './fetcher';
