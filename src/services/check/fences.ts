// Fenced code blocks of Markdown (CommonMark 4.5): their lines are examples, not links or
// headings, for the link extractor and the heading ids alike.

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;

/**
 * A reader to give each line of a document in order: it answers true for the lines of a fenced
 * code block, its opening and closing fences included. A block closes at a fence of the same
 * character at least as long as the one that opened it.
 */
export function codeFenceReader(): (line: string) => boolean {
  let fence: string | undefined;
  return (line) => {
    const open = FENCE.exec(line);
    if (fence !== undefined) {
      if (open && open[1][0] === fence[0] && open[1].length >= fence.length) fence = undefined;
      return true;
    }
    if (open) fence = open[1];
    return open !== null;
  };
}
