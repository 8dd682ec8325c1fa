// Names and repeats, checked by `npm run lint`:
// - no file, folder or exported symbol under src/ uses a word of the house instead of the field's (a newcomer should
//   not need a glossary to read a name): HOUSE_WORDS, matched as whole words of a kebab-case or camelCase name;
// - a CLI command is created only from its declaration (cli/commands/declarations.ts): a command module calls
//   `declareCommand(program, name)`, never `program.command(…)` with a description of its own;
// - copied code stays rare: at most MAX_REPEATS pairs of files (or places in one file) share a run of REPEAT_LINES
//   or more identical lines (comments, imports, blank lines and lone punctuation aside).
// Prints each breach as `file:line what` and exits 1 when there is one.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';

const HOUSE_WORDS = ['road', 'room', 'face', 'reach', 'pack', 'hint', 'house'];
const REPEAT_LINES = 6;
const MAX_REPEATS = 6;
/** A run found in more places than this is a common idiom, not a copy (as the `duplicates` tool counts). */
const MAX_PLACES = 8;

function entries(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return [{ path, dir: true }, ...entries(path)];
    return [{ path, dir: false }];
  });
}

/** `model-road.ts` → ['model', 'road']; `createModelRoad` → ['create', 'model', 'road']. */
export function wordsOf(name) {
  return name
    .replace(/\.[a-z]+$/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase().replace(/s$/, ''));
}

function houseWord(name) {
  return wordsOf(name).find((word) => HOUSE_WORDS.includes(word));
}

const EXPORTED =
  /^export\s+(?:declare\s+)?(?:async\s+)?(?:const|let|function\*?|class|interface|type|enum)\s+([A-Za-z_$][\w$]*)/;

export function nameBreaches(root, tree) {
  const breaches = [];
  for (const { path, dir } of tree) {
    const where = relative(root, path);
    const word = houseWord(basename(path));
    if (word)
      breaches.push(`${where} the ${dir ? 'folder' : 'file'} name uses "${word}": name what it holds`);
    if (dir || !path.endsWith('.ts')) continue;
    readFileSync(path, 'utf8')
      .split('\n')
      .forEach((line, index) => {
        const symbol = EXPORTED.exec(line)?.[1];
        const used = symbol && houseWord(symbol);
        if (used) breaches.push(`${where}:${index + 1} the export ${symbol} uses "${used}": name what it is`);
      });
  }
  return breaches;
}

export function commandBreaches(root, tree) {
  return tree
    .filter(({ path, dir }) => !dir && /[/\\]cli[/\\]commands[/\\][\w-]+-command\.ts$/.test(path))
    .flatMap(({ path }) =>
      readFileSync(path, 'utf8')
        .split('\n')
        .flatMap((line, index, lines) => {
          const call = /\bprogram\s*$/.test(line) && /^\s*\.command\(/.test(lines[index + 1] ?? '');
          return /\bprogram\.command\(/.test(line) || call
            ? [
                `${relative(root, path)}:${index + 1} creates a command itself: use declareCommand(program, name)`,
              ]
            : [];
        }),
    );
}

/** The lines that can make a copy: code, with white space folded. */
function significantLines(text) {
  return text.split('\n').flatMap((raw, index) => {
    const line = raw.trim().replace(/\s+/g, ' ');
    if (!line || /^(\/\/|\/\*|\*)/.test(line) || /^(import|export \{[^}]*\} from|export type \{)/.test(line))
      return [];
    if (/^[\s{}()[\];,.]*$/.test(line)) return [];
    return [{ line, number: index + 1 }];
  });
}

export function repeatedRuns(root, files) {
  const places = new Map();
  for (const path of files) {
    const lines = significantLines(readFileSync(path, 'utf8'));
    for (let start = 0; start + REPEAT_LINES <= lines.length; start += 1) {
      const key = lines
        .slice(start, start + REPEAT_LINES)
        .map((entry) => entry.line)
        .join('\n');
      const list = places.get(key) ?? [];
      list.push({ file: relative(root, path), line: lines[start].number, index: start });
      places.set(key, list);
    }
  }
  const pairs = new Map();
  for (const list of places.values()) {
    if (list.length < 2 || list.length > MAX_PLACES) continue;
    for (let a = 0; a < list.length; a += 1) {
      for (let b = a + 1; b < list.length; b += 1) {
        const [left, right] = [list[a], list[b]];
        if (left.file === right.file && Math.abs(left.index - right.index) < REPEAT_LINES) continue;
        const key = `${left.file} ~ ${right.file}`;
        if (!pairs.has(key)) pairs.set(key, `${left.file}:${left.line} ~ ${right.file}:${right.line}`);
      }
    }
  }
  return [...pairs.values()];
}

function main() {
  const root = process.cwd();
  const src = join(root, 'src');
  const tree = entries(src);
  const breaches = [...nameBreaches(root, tree), ...commandBreaches(root, tree)];
  const files = tree.filter(({ path, dir }) => !dir && path.endsWith('.ts')).map(({ path }) => path);
  const repeats = repeatedRuns(root, files);
  if (repeats.length > MAX_REPEATS) {
    breaches.push(
      ...repeats.map((pair) => `${pair} share ${REPEAT_LINES}+ identical lines`),
      `${repeats.length} repeated runs (at most ${MAX_REPEATS}): make the shared logic one function`,
    );
  }
  for (const breach of breaches) console.log(breach);
  if (breaches.length) process.exit(1);
  console.log(
    `names and repeats: ${tree.length} entries of src/ named in the field's words, commands created from their declarations, ${repeats.length} repeated runs (at most ${MAX_REPEATS})`,
  );
}

if (process.argv[1] && import.meta.url.endsWith(basename(process.argv[1]))) main();
