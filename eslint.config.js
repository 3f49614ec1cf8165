import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import prettierOff from 'eslint-config-prettier';

/**
 * Outside src/engine, the engine is imported from src/engine/index.ts only, and from pure doors
 * the page's bundle may hold without loading the engine: its settings specs, its JSON-RPC types
 * and guards (core/jsonrpc.ts imports nothing), the recording bounds (core/recordingLimits.ts), the
 * faults' and orderings' grammars (core/faults.ts, core/schedule.ts, which import only the error catalogue)
 * and the invariants' names (core/invariantNames.ts).
 */
const engineFrontDoor = {
  group: [
    '**/engine/**',
    '!**/engine/index',
    '!**/engine/settingsSpecs',
    '!**/engine/core',
    '!**/engine/core/jsonrpc',
    '!**/engine/core/recordingLimits',
    '!**/engine/core/faults',
    '!**/engine/core/schedule',
    '!**/engine/core/invariantNames',
  ],
  message:
    'Import the engine from its front door (src/engine/index.ts), never a file inside it (but settingsSpecs.ts, core/jsonrpc.ts, core/recordingLimits.ts, core/faults.ts, core/schedule.ts and core/invariantNames.ts, pure).',
};

/**
 * The page (src/ui, src/store) takes the engine's types (a Transcript, the events) from its front door, one
 * road in, and never its code: `import type` only, so the page's bundle holds none of the engine.
 */
const pageTakesEngineTypes = {
  regex: '(^|/)engine(/index)?$',
  allowTypeImports: true,
  message:
    "The page takes only the engine's types from its front door (import type): protocol behaviour is computed in the worker.",
};

/** What the engine never imports, wherever in it a file sits: the layers above it and UI libraries. */
const engineBoundaries = [
  {
    group: ['react', 'react-dom', 'react-dom/*', 'zustand', 'zustand/*', '@xyflow/*'],
    message: 'src/engine stays free of UI libraries.',
  },
  {
    group: [
      '**/ui/**',
      '**/store/**',
      '**/worker/**',
      '**/cli/**',
      '**/diagram/**',
      '**/lesson/**',
      '**/runs/**',
      '**/sdk/**',
      '**/probe/**',
    ],
    message:
      'Dependencies point ui → store → worker → engine (and cli, lesson, runs, sdk, probe, diagram → engine), never back.',
  },
];

const ambientTimeMessage =
  'The engine is deterministic: take time from the virtual clock and randomness from the seeded PRNG (src/engine/prng.ts).';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'dist-unplaced/**',
      'node_modules/**',
      'test-results/**',
      'playwright-report/**',
      'e2e-artifacts/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The service worker's source (the build fills in its precache list): a worker, not a page.
    files: ['src/sw/**/*.js'],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
  {
    files: ['src/ui/**/*.{ts,tsx}', 'src/store/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    // Dependencies point ui → store → worker → engine, never back (docs/architecture.md#layers-point-one-way).
    files: ['src/ui/**/*.{ts,tsx}'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/worker/**', '**/engine/**', '**/scenarios/**', '**/cli/**'],
              message: 'The UI talks to the store only; protocol behaviour is computed in the worker.',
            },
            pageTakesEngineTypes,
          ],
        },
      ],
    },
  },
  {
    files: ['src/store/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      // The settings specs are pure data (ranges, lists, defaults): the panels read them from the engine's second front door.
      // The recording bounds are two numbers the store checks a file against before it reaches the worker.
      // The faults and orderings grammars are the one parse and format of each: the link is read and written with
      // them, and the diagram's fault menu edits the parsed faults.
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '**/ui/**',
                '**/engine/**',
                '!**/engine/settingsSpecs',
                '!**/engine/core',
                '!**/engine/core/recordingLimits',
                '!**/engine/core/faults',
                '!**/engine/core/schedule',
                '**/scenarios/**',
                '**/cli/**',
              ],
              message:
                'The store reaches the engine only through the worker (and its settings specs through engine/settingsSpecs, the recording bounds through engine/core/recordingLimits, the faults and orderings grammars through engine/core/faults and engine/core/schedule).',
            },
            pageTakesEngineTypes,
          ],
        },
      ],
    },
  },
  {
    // The diagram's geometry is framework-free: the worker and the page both call it, it calls neither.
    files: ['src/diagram/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['react', 'react-dom', 'react-dom/*', 'zustand', 'zustand/*', '@xyflow/*'],
              message: 'The diagram geometry stays free of UI libraries.',
            },
            {
              group: ['**/ui/**', '**/store/**', '**/worker/**', '**/cli/**'],
              message: 'The diagram geometry depends on the engine (its types) only.',
            },
            engineFrontDoor,
          ],
        },
      ],
    },
  },
  {
    files: ['src/worker/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/ui/**', '**/store/**', '**/cli/**'],
              message: 'The worker never depends on the UI or the store.',
            },
            engineFrontDoor,
          ],
        },
      ],
    },
  },
  {
    // Code over the engine reaches it through its front door only.
    files: [
      'src/cli/**/*.ts',
      'src/probe/**/*.ts',
      'src/sdk/**/*.ts',
      'src/lesson/**/*.ts',
      'src/runs/**/*.ts',
      'src/testing/**/*.ts',
      'src/scenarios/**/*.ts',
      'bench/**/*.ts',
      'scripts/**/*.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/ui/**', '**/store/**'], message: 'Only the page depends on the UI and the store.' },
            engineFrontDoor,
          ],
        },
      ],
    },
  },
  {
    // The run spec (src/runs) asks the SDK folder what it refuses and dispatches to its lanes: never the other way.
    files: ['src/sdk/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/ui/**', '**/store/**', '**/lesson/**', '**/runs/**', '**/cli/**', '**/worker/**'],
              message: 'src/sdk sits under src/lesson, src/runs and the CLI: it imports the engine only.',
            },
            engineFrontDoor,
          ],
        },
      ],
    },
  },
  {
    // The CLI's probe command (cli/probeCommand.ts) drives the probe: never the other way.
    files: ['src/probe/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '**/ui/**',
                '**/store/**',
                '**/cli/**',
                '**/worker/**',
                '**/lesson/**',
                '**/runs/**',
                '**/sdk/**',
              ],
              message: 'src/probe sits under the CLI: it imports the engine only.',
            },
            engineFrontDoor,
          ],
        },
      ],
    },
  },
  {
    // End-to-end tests drive the page and may read its constants; the engine still only by its front door.
    files: ['e2e/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [engineFrontDoor] }],
    },
  },
  {
    // docs/architecture.md#nothing-ambient-in-the-engine: no wall clock, no timers, no Math.random.
    files: ['src/engine/**/*.ts', 'src/scenarios/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: ambientTimeMessage },
        { object: 'performance', property: 'now', message: ambientTimeMessage },
        { object: 'Math', property: 'random', message: ambientTimeMessage },
        { object: 'globalThis', property: 'setTimeout', message: ambientTimeMessage },
        { object: 'globalThis', property: 'setInterval', message: ambientTimeMessage },
        { object: 'window', property: 'setTimeout', message: ambientTimeMessage },
        { object: 'window', property: 'setInterval', message: ambientTimeMessage },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'setTimeout', message: ambientTimeMessage },
        { name: 'setInterval', message: ambientTimeMessage },
        { name: 'performance', message: ambientTimeMessage },
        { name: 'window', message: 'The engine runs in Node and in a worker: no DOM.' },
        { name: 'document', message: 'The engine runs in Node and in a worker: no DOM.' },
      ],
      'no-restricted-syntax': [
        'error',
        { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: ambientTimeMessage },
      ],
      'no-restricted-imports': ['error', { patterns: engineBoundaries }],
    },
  },
  {
    // Inside the engine the rooms point down: core (the kit) imports nothing above it; mcp, explore and
    // recording import the kit only; a model imports the kit, the protocol's rules and other models;
    // the top floor (scenario.ts, transcript.ts, explorer.ts, compare.ts, …) imports any of them.
    files: ['src/engine/core/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...engineBoundaries,
            {
              regex: '^\\.\\./',
              message: 'core/ is the kit under every other room of the engine: it imports nothing outside core/.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/engine/mcp/**/*.ts', 'src/engine/explore/**/*.ts', 'src/engine/recording/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...engineBoundaries,
            {
              regex: '^\\.\\./(?!core/)',
              message:
                'This room of the engine imports the kit (core/) only; what joins rooms lives on the top floor (src/engine/*.ts).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/engine/models/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...engineBoundaries,
            {
              regex: '^\\.\\./\\.\\./(?!core/|mcp/)',
              message:
                "A model imports the kit (core/), the protocol's rules (mcp/) and other models, never the engine's top floor.",
            },
          ],
        },
      ],
    },
  },
  {
    // Scenarios are data over the engine: the same boundaries as the engine, through its front door.
    files: ['src/scenarios/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['react', 'react-dom', 'react-dom/*', 'zustand', 'zustand/*', '@xyflow/*'],
              message: 'Scenarios stay free of UI libraries.',
            },
            {
              group: ['**/ui/**', '**/store/**', '**/worker/**', '**/cli/**'],
              message: 'Dependencies point ui → store → worker → engine, never back.',
            },
            engineFrontDoor,
          ],
        },
      ],
    },
  },
  // Layout is Prettier's (npm run format; checked by npm run lint:format): no lint rule argues with it.
  prettierOff,
);
