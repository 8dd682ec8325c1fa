// What may import what, checked by `npm run lint` (see ARCHITECTURE.md): entry points → compose → capabilities
// (through their public entries) → stages and edges → core. A broken rule fails CI.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'entry-points-use-the-public-entries',
      comment:
        'cli/ and server/ only parse input and call use cases: they import the composition root and the capabilities through their index.ts (compose/index.ts, editions|desk|subscribers|api|channels|setup/index.ts), config/ and core/, and their own folder. `digest serve` gets its server from the root (compose/service.ts), so no command imports server/.',
      severity: 'error',
      from: { path: '^src/(cli|server)/' },
      to: {
        path: '^src/',
        pathNot: [
          '^src/(config|core)/',
          '^src/$1/',
          '^src/compose/index[.]ts$',
          '^src/(editions|desk|subscribers|api|channels|setup)/index[.]ts$',
        ],
      },
    },
    {
      name: 'the-server-gets-use-cases',
      comment:
        'server/ is built by the root (compose/service.ts) from use cases and settings: it never imports the root, whose Digest would hand it the ports (store, config) it must not reach for.',
      severity: 'error',
      from: { path: '^src/server/' },
      to: { path: '^src/(compose/|deps[.]ts$)' },
    },
    {
      name: 'capabilities-meet-through-their-index',
      comment:
        'A capability folder (editions, desk, subscribers, api, channels, setup) imports another one only through its index.ts, so each capability can be rearranged inside without breaking the others.',
      severity: 'error',
      from: { path: '^src/(editions|desk|subscribers|api|channels|setup)/' },
      to: { path: '^src/(editions|desk|subscribers|api|channels|setup)/', pathNot: ['^src/$1/', '^src/(editions|desk|subscribers|api|channels|setup)/index[.]ts$'] },
    },
    {
      name: 'the-root-uses-the-public-entries',
      comment: 'compose/ wires the capabilities through their index.ts like everyone else.',
      severity: 'error',
      from: { path: '^src/compose/' },
      to: { path: '^src/(editions|desk|subscribers|api|channels|setup)/', pathNot: '^src/(editions|desk|subscribers|api|channels|setup)/index[.]ts$' },
    },
    {
      name: 'capabilities-do-not-import-the-root-or-entry-points',
      comment: 'Use cases are handed their ports (src/deps.ts); they never reach for the root that built them.',
      severity: 'error',
      from: { path: '^src/(editions|desk|subscribers|api|channels|setup)/' },
      to: { path: '^src/(compose|cli|server)/' },
    },
    {
      name: 'lower-layers-do-not-import-upward',
      comment:
        'The edges (net, store, llm, mail, deliver) and the stages (sources, enrich, select, write, publish) are composed by the capabilities above them; an import upward would turn the flow around.',
      severity: 'error',
      from: { path: '^src/(core|config|net|store|llm|mail|deliver|sources|enrich|select|write|publish|sample)/' },
      to: { path: '^src/((editions|desk|subscribers|api|channels|setup|compose|cli|server)/|deps[.]ts$)' },
    },
    {
      name: 'stages-use-ports-in-core',
      comment:
        'The stages (sources, enrich, select, write, publish) read and write stored things through the ports core/ports.ts declares (StageStore: items, editions, decisions, cache, paper texts), which store/ implements; a stage never imports store/.',
      severity: 'error',
      from: { path: '^src/(sources|enrich|select|write|publish)/' },
      to: { path: '^src/store/' },
    },
    {
      name: 'core-imports-nothing-in-src',
      comment: 'core/ holds domain types, ports and rules: no IO, nothing else from src/.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^src/', pathNot: '^src/core/' },
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
