// The layers, checked by `npm run lint` (see ARCHITECTURE.md). A broken rule fails CI.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'entry-points-use-the-app-layer',
      comment:
        'cli/ and server/ only parse input and call the use-case layer: they import app/, config/ and core/ (each within itself); `digest serve` (cli/commands/serve.ts) alone starts server/.',
      severity: 'error',
      from: { path: '^src/(cli|server)/', pathNot: '^src/cli/commands/serve[.]ts$' },
      to: {
        path: '^src/',
        pathNot: ['^src/(app|config|core)/', '^src/$1/'],
      },
    },
    {
      name: 'serve-command-starts-the-server',
      comment: 'The serve command may start server/, besides what every entry point may import.',
      severity: 'error',
      from: { path: '^src/cli/commands/serve[.]ts$' },
      to: { path: '^src/', pathNot: ['^src/(app|config|core|server)/', '^src/cli/'] },
    },
    {
      name: 'core-imports-nothing-in-src',
      comment: 'core/ holds domain types, ports and rules: no IO, nothing else from src/.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^src/', pathNot: '^src/core/' },
    },
    {
      name: 'stages-do-not-import-entry-points',
      comment: 'Data flows one way: nothing below the entry points imports cli/ or server/.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(cli|server)/' },
      to: { path: '^src/(cli|server)/' },
    },
    {
      name: 'stages-do-not-import-the-app-layer',
      comment: 'app/ composes the stages; a stage importing app/ would turn the flow around.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(app|cli|server)/' },
      to: { path: '^src/app/' },
    },
    {
      name: 'no-private-files-across-folders',
      comment:
        'A file whose name starts with `_` is private to its folder: src/X/ may import src/X/_*.ts (and _ files below X), nothing outside X may. Helpers several folders need live in a public module (core/urls.ts, core/anchors.ts, core/text.ts, net/sleep.ts, publish/style-hash.ts).',
      severity: 'error',
      from: { path: '^src/([^/]+)/' },
      to: { path: '^src/.+/_[^/]*$', pathNot: '^src/$1/' },
    },
    {
      name: 'no-circular',
      comment: 'No import cycles.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
