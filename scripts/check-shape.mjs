// The house's size rules, checked by `npm run lint` (see ARCHITECTURE.md, "Keeping the shape"):
// - no function body longer than 80 lines, unless a comment just above it starts with `long:` and says why;
// - no options/input/deps type (an interface or object type whose name ends in Options, Input, Deps, Settings or
//   Context) with more than 8 fields: a wider one is split into named groups.
// Prints each breach as `file:line what` and exits 1 when there is one.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const MAX_FUNCTION_LINES = 80;
const MAX_OPTION_FIELDS = 8;
const OPTION_NAME = /(Options|Input|Deps|Settings|Context)$/;

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

function lineOf(file, position) {
  return file.getLineAndCharacterOfPosition(position).line + 1;
}

function hasLongReason(file, node) {
  const text = file.getFullText();
  // The comment may stand above the function or above the statement that holds it (const x = () => …).
  for (let current = node; current && current.kind !== ts.SyntaxKind.SourceFile; current = current.parent) {
    const comments = ts.getLeadingCommentRanges(text, current.getFullStart()) ?? [];
    if (comments.some((range) => /^\/[/*]\s*long:/.test(text.slice(range.pos, range.end)))) return true;
    if (ts.isBlock(current.parent ?? current) || ts.isSourceFile(current.parent)) break;
  }
  return false;
}

function functionName(node) {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  const parent = node.parent;
  if (
    parent &&
    (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) &&
    ts.isIdentifier(parent.name)
  ) {
    return parent.name.text;
  }
  return '(anonymous)';
}

function checkFile(path, root) {
  const text = readFileSync(path, 'utf8');
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const breaches = [];
  const where = (node) => `${relative(root, path)}:${lineOf(file, node.getStart(file))}`;
  const visit = (node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body && ts.isBlock(node.body)) {
      const lines = lineOf(file, node.body.getEnd()) - lineOf(file, node.body.getStart(file)) + 1;
      if (lines > MAX_FUNCTION_LINES && !hasLongReason(file, node)) {
        breaches.push(
          `${where(node)} function ${functionName(node)} is ${lines} lines (at most ${MAX_FUNCTION_LINES})`,
        );
      }
    }
    const named = ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node) ? node.name.text : null;
    if (named && OPTION_NAME.test(named)) {
      const members = ts.isInterfaceDeclaration(node)
        ? node.members
        : ts.isTypeLiteralNode(node.type)
          ? node.type.members
          : [];
      if (members.length > MAX_OPTION_FIELDS) {
        breaches.push(`${where(node)} ${named} has ${members.length} fields (at most ${MAX_OPTION_FIELDS})`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return breaches;
}

const root = process.cwd();
const dirs = process.argv.slice(2).length ? process.argv.slice(2) : ['src'];
const files = dirs.flatMap((dir) => sourceFiles(join(root, dir)));
const breaches = files.flatMap((path) => checkFile(path, root));
for (const breach of breaches) console.log(breach);
if (breaches.length) {
  console.log(
    `${breaches.length} breach(es) of the size rules: split the function or the type, or write \`// long: why\` above a function that reads best whole.`,
  );
  process.exit(1);
}
console.log(
  `size rules: ${files.length} files, no function over ${MAX_FUNCTION_LINES} lines, no options type over ${MAX_OPTION_FIELDS} fields`,
);
