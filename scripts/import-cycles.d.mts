/** Types of `import-cycles.mjs` for the TypeScript tests that run it. */

/** One strongly connected set of modules, paths relative to the folder checked. */
export interface ImportCycle {
  /** Every module of the set, sorted. */
  readonly modules: readonly string[];
  /** One circle of imports through the first module, which it starts and ends with. */
  readonly circle: readonly string[];
}

/** The folders the workspace keeps its sources in: each `packages/*\/src` and `apps/*\/src` that exists. */
export function workspaceSourceDirs(root: string): string[];

/** The import graph of `sourceDir`'s non-test sources: each file (relative to it) to the files it imports. */
export function importGraph(sourceDir: string): Map<string, string[]>;

/** The import cycles of `sourceDir`'s non-test sources; empty when it has none. */
export function findImportCycles(sourceDir: string): ImportCycle[];
