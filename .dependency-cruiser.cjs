// The import rules `npm run lint` checks (dependency-cruiser): no import cycles, between modules,
// between folders and between packages; the api's horizontal layers depend on no feature; the
// packages depend on each other in one direction only. Type-only imports count: a cycle of types
// is a cycle of meaning. Run `npm run lint:deps` alone to see the violations.
const apps = '(api|media-worker|render-worker|control-ui|load-tests)';
const horizontal = '(http|access|jobs|leases|mail|platforms|ws)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment:
        'An import of a file that is not there (a stylesheet moved by one branch, imported at its old place by another): the type checker does not see CSS modules, this does.',
      from: {},
      // k6's modules live in the k6 binary; vite/client is a types-only reference.
      to: { couldNotResolve: true, pathNot: '^k6$|^k6/|^vite/client$' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A module that reaches itself through its imports: move what both sides need into a module that imports neither.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-folder-cycle',
      severity: 'error',
      comment:
        'Folders that import each other (a feature folder of api/src or control-ui/src, a folder of protocol/src, ' +
        'of the workers…): move what both sides need into a folder that imports neither.',
      scope: 'folder',
      from: {},
      to: { circular: true },
    },
    {
      name: 'api-horizontal-layers-depend-on-no-feature',
      severity: 'error',
      comment: `The api's horizontal layers (${horizontal}) are read by every feature and import none.`,
      from: { path: `^api/src/${horizontal}/` },
      to: { path: '^api/src/', pathNot: `^api/src/${horizontal}/|^api/src/(config|module)\\.ts$` },
    },
    {
      name: 'api-features-do-not-import-the-composition-roots',
      severity: 'error',
      comment: 'compose.ts, app.ts, sockets.ts, background.ts and main.ts wire the features; a feature declares what it needs instead.',
      from: { path: '^api/src/[^/]+/' },
      to: { path: '^api/src/(app|compose|sockets|background|main)\\.ts$' },
    },
    {
      name: 'control-ui-kit-imports-no-product',
      severity: 'error',
      comment: 'control-ui/src/components is the kit: it takes data and callbacks as props and reads no store, calls no action, knows no feature.',
      from: { path: '^control-ui/src/components/' },
      to: { path: '^control-ui/src/(actions|stores|api|features|pages|app)/' },
    },
    {
      name: 'control-ui-actions-and-below-import-no-ui',
      severity: 'error',
      comment:
        'control-ui: actions, stores, api, model, config, hooks (and test helpers) sit under the UI; what a feature and an action both need moves down to them.',
      from: { path: '^control-ui/src/(actions|stores|api|model|config|hooks|test)/' },
      to: { path: '^control-ui/src/(components|features|pages|app)/' },
    },
    {
      name: 'control-ui-features-import-no-page',
      severity: 'error',
      comment: 'control-ui: pages compose features, so a feature imports no page (the page frames both use are in styles/).',
      from: { path: '^control-ui/src/features/' },
      to: { path: '^control-ui/src/(pages|app)/' },
    },
    {
      name: 'control-ui-pages-import-no-app',
      severity: 'error',
      comment: 'control-ui: app/ (the router, the layouts) routes the pages; a page does not reach back into it.',
      from: { path: '^control-ui/src/pages/' },
      to: { path: '^control-ui/src/app/' },
    },
    {
      name: 'protocol-imports-no-workspace',
      severity: 'error',
      comment: 'protocol holds the contracts: it imports no other package of the project.',
      from: { path: '^protocol/' },
      to: { path: `^(runtime|prisma|embedded|${apps.slice(1, -1)})/` },
    },
    {
      name: 'runtime-and-db-import-no-app',
      severity: 'error',
      comment: 'runtime (on protocol) and @onair/db (on nothing) sit under every app and under embedded.',
      from: { path: '^(runtime|prisma)/' },
      to: { path: `^(embedded|${apps.slice(1, -1)})/` },
    },
    {
      name: 'db-imports-no-workspace',
      severity: 'error',
      comment: "@onair/db imports no other package of the project (its drift test, which needs a server, is embedded's).",
      from: { path: '^prisma/' },
      to: { path: '^(protocol|runtime|embedded)/' },
    },
    {
      name: 'embedded-imports-no-app',
      severity: 'error',
      comment: 'embedded starts the services every app and test uses; it imports none of them.',
      from: { path: '^embedded/' },
      to: { path: `^${apps}/` },
    },
    {
      name: 'apps-import-no-other-app',
      severity: 'error',
      comment: "Apps meet through protocol contracts (Redis, HTTP, job payloads), never through imports (a bench may drive another app's test helpers).",
      from: { path: `^${apps}/src/` },
      to: { path: `^${apps}/`, pathNot: '^$1/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(generated|dist|test-results|playwright-report)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'node', 'default'] },
  },
};
