// The web operations for people: the redirect chain numbered with its status codes, the
// icons and the page metadata as tables, and the image operation as one summary line.
import { STATUS_CODES } from 'node:http';
import type {
  IconsResult,
  ImageResult,
  RedirectsResult,
  UnfurlResult,
} from '../../contract/shapes';
import { renderer, type RenderContext } from './context';
import { columns, labelled } from './layout';

export const renderRedirects = renderer<RedirectsResult>((result, context) => {
  const { style, glyphs } = context;
  const start = String(context.params.url ?? '');
  const urls = [start, ...result.locations.map((hop) => hop.location)];
  const rows = urls.map((url, i) => {
    const hop = result.locations[i];
    const code = hop?.status_code ?? result.final_status_code;
    return [
      style.dim(`${i + 1}`),
      code === undefined ? style.dim(glyphs.none) : statusCode(code, context),
      url,
      style.dim(code === undefined ? '' : (STATUS_CODES[code] ?? '')),
    ];
  });
  const lines = columns(rows, ['right']);
  if (result.error) {
    const why =
      result.error.code === 'redirect_loop'
        ? 'redirect loop: the last hop leads back to an address already visited'
        : 'too many redirects: stopped following';
    lines.push(style.red(`${glyphs.error} ${why}`));
  } else if (result.final_url !== undefined) {
    const hops = result.locations.length;
    lines.push(
      style.dim(
        `${hops === 0 ? 'no redirect' : `${hops} redirect${hops === 1 ? '' : 's'}`}, final ${result.final_url}`,
      ),
    );
  }
  if (result.meta_refresh)
    lines.push(
      style.yellow(
        `${glyphs.warn} the page asks to move on after ${result.meta_refresh.delay} s ${glyphs.arrow} ${result.meta_refresh.url} (meta refresh, not followed)`,
      ),
    );
  return lines.join('\n');
});

function statusCode(code: number, { style }: RenderContext): string {
  const text = String(code);
  if (code >= 400) return style.red(text);
  if (code >= 300) return style.yellow(text);
  return style.green(text);
}

export const renderIcons = renderer<IconsResult>((result, context) => {
  const { style, glyphs } = context;
  const lines = columns([
    [style.bold('Best icon'), result.icon_url || style.dim('none')],
    [style.bold('Canonical'), result.canonical_url || style.dim('none')],
  ]);
  lines.push('');
  if (result.icons.length === 0) {
    lines.push(style.yellow('The page links no icon.'));
    return lines.join('\n');
  }
  const rows = [
    ['rel', 'size', 'format', 'url'].map((h) => style.bold(h)),
    ...result.icons.map((icon) => [
      icon.rel,
      icon.width > 0 || icon.height > 0 || icon.reason !== undefined
        ? `${icon.width}x${icon.height}`
        : style.dim('?'),
      // Why an icon the page declares has no size: a broken link, or over the size cap.
      icon.reason === 'http_error'
        ? style.red(`HTTP ${icon.status ?? '?'}`)
        : icon.reason === 'too_large'
          ? style.yellow('too large')
          : (icon.format ?? style.dim('?')),
      icon.url.startsWith('data:')
        ? style.dim(abbreviate(icon.url, 48, glyphs.ellipsis))
        : icon.url,
    ]),
  ];
  lines.push(...columns(rows, ['left', 'right']));
  return lines.join('\n');
});

export const renderUnfurl = renderer<UnfurlResult>((result, context) => {
  const { style } = context;
  const rows: string[][] = [];
  const row = (label: string, value: string | undefined) => {
    if (value !== undefined && value !== '') rows.push([style.bold(label), value]);
  };
  row('Title', result.page_title);
  row('Description', result.page_description);
  row('Site', result.application_name);
  row('URL', result.resolved_url);
  if (result.canonical_url !== result.resolved_url) row('Canonical', result.canonical_url);
  row('Icon', result.icon_url);
  row('Keywords', result.page_keywords);
  for (const [key, value] of Object.entries(result.open_graph)) {
    if (typeof value === 'string') row(key, value);
    else
      for (const image of value) {
        const size = image.width && image.height ? ` ${image.width}x${image.height}` : '';
        const alt = image.alt ? style.dim(` "${image.alt}"`) : '';
        row(key, `${image.url}${size}${alt}`);
      }
  }
  for (const [key, value] of Object.entries(result.twitter ?? {})) row(key, value);
  row('oEmbed JSON', result.oembed?.json);
  row('oEmbed XML', result.oembed?.xml);
  if (rows.length === 0) return style.yellow('The page carries no title, description or card.');
  return labelled(rows, context.width).join('\n');
});

export const renderImage = renderer<ImageResult>((result, { style, glyphs }) => {
  const comma = result.data_uri.indexOf(',');
  const payload = result.data_uri.slice(comma + 1);
  const bytes = result.data_uri.slice(0, comma).endsWith(';base64')
    ? Buffer.from(payload, 'base64').length
    : Buffer.byteLength(decodeURIComponent(payload));
  return columns([
    [style.bold('URL'), result.url],
    [style.bold('Image'), `${result.format} ${result.width}x${result.height}, ${bytes} bytes`],
    [style.bold('Data URI'), style.dim(abbreviate(result.data_uri, 60, glyphs.ellipsis))],
  ]).join('\n');
});

function abbreviate(text: string, max: number, ellipsis: string): string {
  return text.length > max ? `${text.slice(0, max - ellipsis.length)}${ellipsis}` : text;
}
