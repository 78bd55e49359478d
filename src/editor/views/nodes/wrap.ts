// Long messages in the results tree, kept free of vscode so the rule is unit-tested in Node.
// The side bar opens about 300 px wide: with the tree's indent and an icon, about 40
// characters of a label show before VS Code cuts it off.

/** The longest line a message node shows. */
export const MESSAGE_LINE_CHARS = 40;

/**
 * The message in lines of at most `width` characters, broken between words (a word longer
 * than a line is cut). One line when it fits; the lines together are the whole message.
 */
export function wrapMessage(text: string, width = MESSAGE_LINE_CHARS): string[] {
  const words = text.trim().split(/\s+/);
  const lines: string[] = [];
  let line = '';
  for (let word of words) {
    while (word.length > width) {
      if (line !== '') lines.push(line);
      lines.push(word.slice(0, width));
      word = word.slice(width);
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
