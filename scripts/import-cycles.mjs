#!/usr/bin/env node
/**
 * Import cycles among a package's own modules (issue 45: types two modules share live below both, so no folder
 * imports a folder above it). Reads the non-test TypeScript sources of a `src/` folder with the TypeScript
 * parser, follows every relative import — `import`, `import type`, `export … from`, `import()` and
 * `typeof import()` alike, since a type-only circle is still a circle in the module graph — and reports each
 * strongly connected set of modules with one circle through it. A specifier written `./x.js` names `./x.ts`, as
 * NodeNext resolution has it; imports of other packages are not followed (each package is checked on its own).
 *
 *   node scripts/import-cycles.mjs                        (every packages/*\/src and apps/*\/src)
 *   node scripts/import-cycles.mjs packages/runtime/src   (the folders named)
 *
 * Exits non-zero, printing each circle, when any folder has one. The runtime's `import-cycles.test.ts` runs the
 * same check under Vitest.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const SOURCE_FILE = /\.(?:d\.)?[cm]?tsx?$/;
const TEST_FILE = /\.(?:test|spec|bench|test-d)\.[cm]?tsx?$/;
/** What a relative specifier may name on disk: NodeNext writes the emitted extension (`.js`) for a `.ts` source. */
const EXTENSION_SOURCES = {
  '.js': ['.ts', '.tsx', '.d.ts'],
  '.jsx': ['.tsx'],
  '.mjs': ['.mts', '.d.mts'],
  '.cjs': ['.cts', '.d.cts'],
};
const EXTENSIONLESS_SOURCES = ['.ts', '.tsx', '.d.ts', '/index.ts', '/index.tsx'];

/** The folders the workspace keeps its sources in: each `packages/*\/src` and `apps/*\/src` that exists. */
export function workspaceSourceDirs(root) {
  return ['packages', 'apps'].flatMap((group) => {
    const groupDir = join(root, group);
    if (!existsSync(groupDir)) return [];
    return readdirSync(groupDir)
      .sort()
      .map((name) => join(groupDir, name, 'src'))
      .filter((dir) => existsSync(dir) && statSync(dir).isDirectory());
  });
}

/** Every non-test TypeScript file under `dir`, as absolute paths. */
function sourceFiles(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && SOURCE_FILE.test(entry.name) && !TEST_FILE.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/** The module specifiers a file names, from every import form the parser knows. */
function specifiersOf(file) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const specifiers = [];
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier)) specifiers.push(node.moduleSpecifier.text);
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteral(node.moduleReference.expression)
    ) {
      specifiers.push(node.moduleReference.expression.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      specifiers.push(node.arguments[0].text);
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      specifiers.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specifiers;
}

/** The source file a relative specifier names, or undefined when it names nothing among `files`. */
function resolveRelative(fromFile, specifier, files) {
  const target = resolve(dirname(fromFile), specifier);
  if (files.has(target)) return target;
  for (const [emitted, sources] of Object.entries(EXTENSION_SOURCES)) {
    if (!target.endsWith(emitted)) continue;
    const stem = target.slice(0, -emitted.length);
    const found = sources.map((extension) => stem + extension).find((candidate) => files.has(candidate));
    if (found) return found;
  }
  return EXTENSIONLESS_SOURCES.map((extension) => target + extension).find((candidate) =>
    files.has(candidate),
  );
}

/** The import graph of `dir`'s non-test sources: each file (relative to `dir`) to the files it imports. */
export function importGraph(sourceDir) {
  const dir = resolve(sourceDir);
  const files = new Set(sourceFiles(dir));
  const graph = new Map();
  for (const file of files) {
    const targets = new Set();
    for (const specifier of specifiersOf(file)) {
      if (!specifier.startsWith('.')) continue;
      const target = resolveRelative(file, specifier, files);
      // Test files are not nodes: an edge into one (a fixture imported by source) would be reported elsewhere.
      if (target) targets.add(relative(dir, target));
    }
    graph.set(relative(dir, file), [...targets].sort());
  }
  return graph;
}

/** Tarjan's strongly connected components: each set of modules that reach one another. */
function stronglyConnected(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  let counter = 0;
  const connect = (node) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node), index.get(next)));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    components.push(component.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) connect(node);
  return components;
}

/** The shortest path of imports from `start` back to itself, staying inside `members`. */
function shortestCircle(graph, start, members) {
  const cameFrom = new Map();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift();
    for (const next of graph.get(node) ?? []) {
      if (!members.has(next)) continue;
      if (next === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(cameFrom.get(path[0]));
        return [...path, start];
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, node);
        queue.push(next);
      }
    }
  }
  return [start, start];
}

/**
 * The import cycles of `dir`'s non-test sources: one entry per strongly connected set of modules (two or more,
 * or one that imports itself), with its members and one circle through its first member. Empty when clean.
 */
export function findImportCycles(dir) {
  const graph = importGraph(dir);
  return stronglyConnected(graph)
    .filter((members) => members.length > 1 || graph.get(members[0]).includes(members[0]))
    .map((members) => ({ modules: members, circle: shortestCircle(graph, members[0], new Set(members)) }))
    .sort((a, b) => a.modules[0].localeCompare(b.modules[0]));
}

function main(args) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const dirs = args.length > 0 ? args.map((arg) => resolve(arg)) : workspaceSourceDirs(root);
  let failed = false;
  for (const dir of dirs) {
    const cycles = findImportCycles(dir);
    const name = relative(root, dir);
    if (cycles.length === 0) {
      console.log(`${name}: no import cycles`);
      continue;
    }
    failed = true;
    console.log(`${name}: ${cycles.length} import cycle${cycles.length === 1 ? '' : 's'}`);
    for (const { modules, circle } of cycles) {
      console.log(
        `  ${circle.join(' → ')}${modules.length > circle.length - 1 ? ` (among ${modules.join(', ')})` : ''}`,
      );
    }
  }
  process.exitCode = failed ? 1 : 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  main(process.argv.slice(2));
