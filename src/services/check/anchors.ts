// The anchors a file of the workspace offers a link's #fragment: a Markdown file's headings as
// GitHub renders their ids, plus id and name attributes written as HTML (in either kind of file).
import { codeFenceReader } from './fences';

const ATX_HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;
const HTML_ANCHOR = /\b(?:id|name)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/gi;

export function anchorsOf(text: string, markdown: boolean): Set<string> {
  const anchors = new Set<string>();
  for (const m of text.matchAll(HTML_ANCHOR)) anchors.add(m[1] ?? m[2] ?? m[3]);
  if (markdown) for (const slug of headingSlugs(text)) anchors.add(slug);
  return anchors;
}

/** GitHub's heading ids in document order, a repeated one numbered "-1", "-2"… */
export function headingSlugs(text: string): string[] {
  const seen = new Map<string, number>();
  const slugs: string[] = [];
  const lines = text.split(/\r?\n/);
  const inCode = codeFenceReader();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (inCode(line)) continue;
    let heading: string | undefined;
    const atx = ATX_HEADING.exec(line);
    if (atx) heading = atx[2] ?? '';
    else if (
      i + 1 < lines.length &&
      line.trim() !== '' &&
      !/^ {4}/.test(line) &&
      SETEXT_UNDERLINE.test(lines[i + 1]) &&
      !/^\s*[-*+]\s/.test(line)
    ) {
      heading = line.trim();
      i++;
    }
    if (heading === undefined) continue;
    const base = slug(renderedText(heading));
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    slugs.push(count === 0 ? base : `${base}-${count}`);
  }
  return slugs;
}

/** A heading's text as rendered: link and image targets, HTML tags and code ticks gone. */
function renderedText(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/!?\[([^\]]*)\]\[[^\]]*\]/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/`/g, '');
}

/**
 * GitHub's slug rule (the one github-slugger implements): lower case, every character that is
 * not a letter, mark, number, connector punctuation, space or hyphen dropped, spaces to hyphens.
 */
export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}
