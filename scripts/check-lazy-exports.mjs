// Dead exports of lazily loaded modules, which knip cannot see: it counts `import('./x.js')` as using every export
// of x. For each module src/ loads through a dynamic import(), this lists its exports and fails on one used
// nowhere: not read after the import (`(await import('./x.js')).name`, `const { name } = await import(…)`,
// `const x = await import(…)` then `x.name`, `const load = () => import(…)` then `(await load()).name`, `const { name } = lazyModule(() =>
// import(…))`, `.then((x) =>
// x.name)`), not imported statically by src/, test/ or bench/, not re-exported, not used in its own file (as knip's
// ignoreExportsUsedInFile). A module loaded in a shape this does not follow is left to knip (counted, not checked).
// Prints each breach as `file:line what` and exits 1 when there is one.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const ALL = Symbol('every export');
const root = process.cwd();

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

function parse(path) {
  return ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
}

/** `./x.js` from a file to the .ts file it names; null for packages and what does not exist. */
function resolveModule(from, specifier) {
  if (!specifier.startsWith('.')) return null;
  const path = resolve(dirname(from), specifier.replace(/\.js$/, '.ts'));
  return existsSync(path) ? path : null;
}

const used = new Map(); // module path → Set of export names, or ALL
const lazy = new Map(); // module path → where src/ loads it lazily first

function use(path, name) {
  const names = used.get(path);
  if (names === ALL) return;
  if (name === ALL) used.set(path, ALL);
  else if (names) names.add(name);
  else used.set(path, new Set([name]));
}

/** Every other identifier named like `id` in the file, each handed to `each` (which returns false when opaque). */
function otherUses(file, id, each) {
  let followed = true;
  const visit = (node) => {
    if (ts.isIdentifier(node) && node !== id && node.text === id.text) followed = each(node) && followed;
    ts.forEachChild(node, visit);
  };
  visit(file);
  return followed;
}

/** A binding the module is read into: `{ a, b: c }` names a and b; `x` names what `x.name` reads. */
function bindingUse(file, name, path) {
  if (ts.isObjectBindingPattern(name)) {
    for (const element of name.elements) {
      const key = element.propertyName ?? element.name;
      if (element.dotDotDotToken || !(ts.isIdentifier(key) || ts.isStringLiteral(key))) return use(path, ALL);
      use(path, key.text);
    }
    return;
  }
  if (!ts.isIdentifier(name)) return use(path, ALL);
  const followed = otherUses(file, name, (node) => {
    const read = ts.isPropertyAccessExpression(node.parent) && node.parent.expression === node;
    if (read) use(path, node.parent.name.text);
    return read;
  });
  if (!followed) use(path, ALL);
}

/** The module itself (an awaited import): what is read from it. */
function moduleUse(file, node, path) {
  while (ts.isParenthesizedExpression(node.parent)) node = node.parent;
  const parent = node.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.expression === node) return use(path, parent.name.text);
  if (ts.isVariableDeclaration(parent) && parent.initializer === node)
    return bindingUse(file, parent.name, path);
  use(path, ALL);
}

/** A promise of the module (an import() call, or a call of `const load = () => import(…)`): how it is awaited. */
function promiseUse(file, node, path) {
  while (ts.isParenthesizedExpression(node.parent)) node = node.parent;
  const parent = node.parent;
  if (ts.isAwaitExpression(parent)) return moduleUse(file, parent, path);
  const then = ts.isPropertyAccessExpression(parent) && parent.name.text === 'then' ? parent.parent : null;
  const handler = then && ts.isCallExpression(then) ? then.arguments[0] : null;
  if (handler && (ts.isArrowFunction(handler) || ts.isFunctionExpression(handler)) && handler.parameters[0]) {
    return bindingUse(file, handler.parameters[0].name, path);
  }
  const loader = ts.isArrowFunction(parent) && parent.body === node ? parent.parent : null;
  if (loader && ts.isVariableDeclaration(loader) && ts.isIdentifier(loader.name)) {
    const followed = otherUses(file, loader.name, (id) => {
      const call = ts.isCallExpression(id.parent) && id.parent.expression === id;
      if (call) promiseUse(file, id.parent, path);
      return call;
    });
    if (!followed) use(path, ALL);
    return;
  }
  const exportsOf = loaderOfLazyModule(parent, node);
  if (exportsOf) {
    // `export const { addEditor, listEditors } = lazyModule(() => import('./editors.js'))`: the names bound.
    return bindingUse(file, exportsOf, path);
  }
  use(path, ALL);
}

/** What `lazyModule(() => import(…))` is bound to when `node` is that import() call, else null. */
function loaderOfLazyModule(parent, node) {
  if (!ts.isArrowFunction(parent) || parent.body !== node) return null;
  const call = parent.parent;
  if (
    !ts.isCallExpression(call) ||
    !ts.isIdentifier(call.expression) ||
    call.expression.text !== 'lazyModule'
  )
    return null;
  const declaration = call.parent;
  return ts.isVariableDeclaration(declaration) ? declaration.name : null;
}

/** Static imports, re-exports, `import('./x.js').Name` types and dynamic import() calls of one file. */
function collectUses(file, inSrc) {
  const named = (elements, path) => {
    for (const element of elements) use(path, (element.propertyName ?? element.name).text);
  };
  const visit = (node) => {
    const specifier = node.moduleSpecifier ?? (ts.isImportTypeNode(node) ? node.argument.literal : null);
    const path =
      specifier && ts.isStringLiteral(specifier) ? resolveModule(file.fileName, specifier.text) : null;
    if (path && ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      if (clause?.name) use(path, 'default');
      if (clause?.namedBindings && ts.isNamespaceImport(clause.namedBindings)) use(path, ALL);
      else if (clause?.namedBindings) named(clause.namedBindings.elements, path);
    } else if (path && ts.isExportDeclaration(node)) {
      if (node.exportClause && ts.isNamedExports(node.exportClause)) named(node.exportClause.elements, path);
      else use(path, ALL);
    } else if (path && ts.isImportTypeNode(node)) {
      const qualifier = node.qualifier;
      use(path, qualifier ? ((ts.isIdentifier(qualifier) ? qualifier : qualifier.left).text ?? ALL) : ALL);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      const target =
        argument && ts.isStringLiteral(argument) ? resolveModule(file.fileName, argument.text) : null;
      if (target && inSrc && !lazy.has(target)) lazy.set(target, where(file, node));
      if (target) promiseUse(file, node, target);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
}

function where(file, node) {
  const line = file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
  return `${relative(root, file.fileName)}:${line}`;
}

/** A module's own exports: [name, declaring node]. `export * from` adds none it could name. */
function exportsOf(file) {
  const found = [];
  for (const statement of file.statements) {
    const modifiers = ts.canHaveModifiers(statement) ? (ts.getModifiers(statement) ?? []) : [];
    const exported = modifiers.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);
    const isDefault = modifiers.some((modifier) => modifier.kind === ts.SyntaxKind.DefaultKeyword);
    if (ts.isExportAssignment(statement)) {
      found.push(['default', statement]);
    } else if (
      ts.isExportDeclaration(statement) &&
      statement.exportClause &&
      ts.isNamedExports(statement.exportClause)
    ) {
      for (const element of statement.exportClause.elements) found.push([element.name.text, element]);
    } else if (exported && ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        if (ts.isIdentifier(declaration.name)) found.push([declaration.name.text, declaration]);
      }
    } else if (exported && statement.name) {
      found.push([isDefault ? 'default' : statement.name.text, statement]);
    }
  }
  return found;
}

/** Used in its own file besides where it is declared and exported (knip's ignoreExportsUsedInFile). */
function usedInFile(file, name, declaration) {
  let count = 0;
  const visit = (node) => {
    if (ts.isExportSpecifier(node)) return;
    if (ts.isIdentifier(node) && node.text === name && node.parent !== declaration) count += 1;
    ts.forEachChild(node, visit);
  };
  visit(file);
  return count > 0;
}

const dirs = ['src', 'test', 'bench'].filter((dir) => existsSync(join(root, dir)));
for (const dir of dirs)
  for (const path of sourceFiles(join(root, dir))) collectUses(parse(path), dir === 'src');

const breaches = [];
let followed = 0;
for (const [path, loadedAt] of lazy) {
  const names = used.get(path);
  if (names === ALL) continue;
  followed += 1;
  const file = parse(path);
  for (const [name, declaration] of exportsOf(file)) {
    if (names?.has(name) || usedInFile(file, name, declaration)) continue;
    breaches.push(
      `${where(file, declaration)} ${name} is exported but used nowhere (the module loads lazily: ${loadedAt})`,
    );
  }
}
for (const breach of breaches) console.log(breach);
if (breaches.length) {
  console.log(`${breaches.length} dead export(s) of lazily loaded modules: remove the export, or the code.`);
  process.exit(1);
}
console.log(
  `lazy exports: ${followed} of ${lazy.size} lazily loaded modules followed, every export used (the rest: knip)`,
);
