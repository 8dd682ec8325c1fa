// The layers, checked by `npm run lint` (see ARCHITECTURE.md). A broken rule fails CI.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'entry-points-use-the-app-layer',
      comment:
        'cli/ and server/ only parse input and call the use-case layer: they import app/, config/ and core/ (and each other within themselves); cli/ may also start server/ (`digest serve`).',
      severity: 'error',
      from: { path: '^src/(cli|server)/' },
      to: {
        path: '^src/',
        pathNot: ['^src/(app|config|core)/', '^src/$1/', '^src/server/'],
      },
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
