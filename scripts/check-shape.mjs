// The size rules, checked by `npm run lint` (see ARCHITECTURE.md, "Checks"):
// - no function body longer than 80 lines, unless a comment just above it starts with `long:` and says why;
// - no options/input/deps type (an interface or object type whose name ends in Options, Input, Deps, Settings or
//   Context) with more than 8 fields: a wider one is split into named groups;
// - no function, method or function-typed member with more than 3 positional parameters, unless a comment just
//   above it starts with `positional:` and says why: past three, a function takes one object of named arguments
//   (a store query's leading `db` is not counted: bindQueries binds it, its port's callers pass the rest).
// Prints each breach as `file:line what` and exits 1 when there is one.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const MAX_FUNCTION_LINES = 80;
const MAX_OPTION_FIELDS = 8;
const MAX_POSITIONAL = 3;
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

function hasReason(file, node, word) {
  const text = file.getFullText();
  const reason = new RegExp(`^\\/[/*]\\s*${word}:`);
  // The comment may stand above the function or above what holds it (const x = () => …, a member `x: (…) => T`),
  // but not above the interface, class or object around a member: each wide member gives its own reason.
  for (let current = node; current && current.kind !== ts.SyntaxKind.SourceFile; current = current.parent) {
    const comments = ts.getLeadingCommentRanges(text, current.getFullStart()) ?? [];
    if (comments.some((range) => reason.test(text.slice(range.pos, range.end)))) return true;
    const parent = current.parent;
    if (!parent || ts.isBlock(parent) || ts.isSourceFile(parent)) break;
    if (ts.isClassElement(current) || ts.isTypeElement(current) || ts.isObjectLiteralElement(current)) break;
  }
  return false;
}

// `this`, and the `db` a store query's first parameter names (bindQueries binds it, so the port's callers never pass
// it), are no caller's positions.
function positionalCount(node) {
  return node.parameters.filter(
    (parameter, index) =>
      !(
        ts.isIdentifier(parameter.name) &&
        (parameter.name.text === 'this' || (index === 0 && parameter.name.text === 'db'))
      ),
  ).length;
}

function functionName(node) {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  const parent = node.parent;
  if (
    parent &&
    (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertySignature(parent)) &&
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
      if (lines > MAX_FUNCTION_LINES && !hasReason(file, node, 'long')) {
        breaches.push(
          `${where(node)} function ${functionName(node)} is ${lines} lines (at most ${MAX_FUNCTION_LINES})`,
        );
      }
    }
    if (ts.isFunctionLike(node) && !ts.isIndexSignatureDeclaration(node)) {
      const count = positionalCount(node);
      if (count > MAX_POSITIONAL && !hasReason(file, node, 'positional')) {
        breaches.push(
          `${where(node)} function ${functionName(node)} takes ${count} positional parameters (at most ${MAX_POSITIONAL})`,
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
    `${breaches.length} breach(es) of the size rules: split the function or the type, or write \`// long: why\` above a function that reads best whole; past ${MAX_POSITIONAL} parameters take one object of named arguments, or write \`// positional: why\` above.`,
  );
  process.exit(1);
}
console.log(
  `size rules: ${files.length} files, no function over ${MAX_FUNCTION_LINES} lines, no options type over ${MAX_OPTION_FIELDS} fields, no function over ${MAX_POSITIONAL} positional parameters`,
);
