// Long messages in the results tree, kept free of vscode so the rule is unit-tested in Node.
// The side bar opens about 300 px wide: with the tree's indent and an icon, about 40
// characters of a label show before VS Code cuts it off.

/** The longest line a message node shows. */
export const MESSAGE_LINE_CHARS = 40;

/**
 * The message in lines of at most `width` characters, broken between words. A word longer
 * than a line (a URL, a long name) is cut after its last separator that fits (`/ . - ? & = _`),
 * so the pieces read as parts of it, else at the width. One line when it fits; the lines
 * together are the whole message.
 */
export function wrapMessage(text: string, width = MESSAGE_LINE_CHARS): string[] {
  const words = text.trim().split(/\s+/);
  const lines: string[] = [];
  let line = '';
  for (let word of words) {
    while (word.length > width) {
      if (line !== '') lines.push(line);
      const cut = cutPoint(word, width);
      lines.push(word.slice(0, cut));
      word = word.slice(cut);
      line = '';
    }
    if (line === '') line = word;
    else if (line.length + 1 + word.length <= width) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line !== '' || lines.length === 0) lines.push(line);
  return lines;
}

const SEPARATORS = '/.-?&=_';

/** Where to cut a word longer than a line: after a separator in its last two thirds, or at the width. */
function cutPoint(word: string, width: number): number {
  for (let i = width - 1; i >= Math.ceil(width / 3); i--) {
    if (SEPARATORS.includes(word[i])) return i + 1;
  }
  return width;
}
