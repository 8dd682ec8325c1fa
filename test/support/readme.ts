// The README as an executable document: its ```sh (and ```crontab) blocks under given headings, split into commands
// a test can run. A block preceded by `<!-- readme-test: skip — reason -->` is reported as skipped, with its reason.

export interface ReadmeCommand {
  /** `NAME=value` words before the command, and `export NAME=value` lines earlier in the block. */
  env: Record<string, string>;
  argv: string[];
  /** The line as written, for messages. */
  text: string;
}

export interface ReadmeBlock {
  /** "set-up" for the text before the first "## " heading, else the "## " heading it is under. */
  section: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** Each line's commands; `a && b` is two commands, the second run only when the first exits 0. */
  lines: ReadmeCommand[][];
  skip: string | null;
}

const SKIP = /<!--\s*readme-test:\s*skip\s*[—-]\s*(.+?)\s*-->/;

/** The blocks under the given `## ` headings, or every block of the page with `'all'`. */
export function readmeBlocks(markdown: string, sections: readonly string[] | 'all'): ReadmeBlock[] {
  const lines = markdown.split('\n');
  const blocks: ReadmeBlock[] = [];
  let section = 'set-up';
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    const heading = /^## (.+)$/.exec(line);
    if (heading?.[1]) section = heading[1].trim();
    const fence = /^```(sh|crontab)\s*$/.exec(line);
    if (!fence) {
      if (line.startsWith('```')) index = closingFence(lines, index);
      continue;
    }
    const end = closingFence(lines, index);
    if (sections === 'all' || sections.includes(section)) {
      const body = lines.slice(index + 1, end);
      const before = lines.slice(Math.max(0, index - 2), index).join('\n');
      blocks.push({
        section,
        line: index + 1,
        lines: parseBlock(body, fence[1] === 'crontab'),
        skip: SKIP.exec(before)?.[1] ?? null,
      });
    }
    index = end;
  }
  return blocks;
}

function closingFence(lines: string[], open: number): number {
  for (let index = open + 1; index < lines.length; index += 1)
    if (lines[index]?.startsWith('```')) return index;
  throw new Error(`README: the code block at line ${open + 1} is not closed`);
}

function parseBlock(body: string[], crontab: boolean): ReadmeCommand[][] {
  const exported: Record<string, string> = {};
  const result: ReadmeCommand[][] = [];
  for (const raw of body) {
    let words = shellWords(raw);
    // A crontab line: five schedule fields, then `cd <folder> &&` (the test runs in its own folder).
    if (crontab && words.length > 0) {
      words = words.slice(5);
      if (words[0] === 'cd' && words[2] === '&&') words = words.slice(3);
    }
    if (words.length === 0) continue;
    const commands: ReadmeCommand[] = [];
    for (const part of splitOn(words, '&&')) {
      if (part[0] === 'export') {
        for (const assignment of part.slice(1)) Object.assign(exported, assignmentOf(assignment));
        continue;
      }
      const env: Record<string, string> = { ...exported };
      let start = 0;
      while (start < part.length && assignmentOf(part[start]!))
        Object.assign(env, assignmentOf(part[start++]!));
      commands.push({ env, argv: part.slice(start), text: raw.trim() });
    }
    if (commands.length > 0) result.push(commands);
  }
  return result;
}

function assignmentOf(word: string): Record<string, string> | null {
  const match = /^([A-Z_][A-Z0-9_]*)=(.*)$/s.exec(word);
  return match ? { [match[1]!]: match[2]! } : null;
}

function splitOn(words: string[], separator: string): string[][] {
  const parts: string[][] = [[]];
  for (const word of words) {
    if (word === separator) parts.push([]);
    else parts.at(-1)!.push(word);
  }
  return parts.filter((part) => part.length > 0);
}

/** Words of one shell line: 'single' and "double" quotes, a # comment after white space; no expansions. */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let current: string | null = null;
  let quote: '"' | "'" | null = null;
  for (let index = 0; index < line.length; index += 1) {
    const character = line[index]!;
    if (quote) {
      if (character === quote) quote = null;
      else current += character;
      continue;
    }
    if (character === '"' || character === "'") {
      quote = character;
      current ??= '';
      continue;
    }
    if (/\s/.test(character)) {
      if (current !== null) words.push(current);
      current = null;
      continue;
    }
    if (character === '#' && current === null) break;
    if (character === '$' || character === '`' || character === '|' || character === ';' || character === '>')
      throw new Error(
        `README command uses shell syntax this runner does not model (${character}): ${line.trim()}`,
      );
    current = (current ?? '') + character;
  }
  if (quote) throw new Error(`README command has an unclosed quote: ${line.trim()}`);
  if (current !== null) words.push(current);
  return words;
}
