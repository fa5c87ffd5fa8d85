// Arrows between the folders of server/src run one way (issue #19): no folder imports another
// that imports it back, directly or around a longer loop. Files at the top of server/src
// (main.ts, runtime.ts, app.ts, deps.ts, index.ts) are the composition root that wires every
// folder together, so they are not a folder of the graph.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import ts from 'typescript';

const SERVER_SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../server/src');

/** One folder-to-folder arrow and the first import that draws it, as "from -> to". */
type FolderGraph = Map<string, Map<string, string>>;

/** Every .ts file under `dir`, as absolute paths. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The top-level folder of server/src a path lies in, or undefined for a file at the top. */
function folderOf(path: string): string | undefined {
  const parts = relative(SERVER_SRC, path).split(sep);
  return parts.length > 1 && parts[0] !== '..' ? parts[0] : undefined;
}

/** The folder graph of server/src from its relative imports (import, export … from, import()). */
function serverFolderGraph(): FolderGraph {
  const graph: FolderGraph = new Map();
  for (const file of sourceFiles(SERVER_SRC)) {
    const from = folderOf(file);
    if (!from) continue;
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = resolve(dirname(file), fileName);
      const to = folderOf(target);
      if (!to || to === from) continue;
      const arrows = graph.get(from) ?? new Map<string, string>();
      graph.set(from, arrows);
      if (!arrows.has(to)) {
        arrows.set(to, `${relative(SERVER_SRC, file)} -> ${relative(SERVER_SRC, target)}`);
      }
    }
  }
  return graph;
}

/**
 * The cycles of a folder graph, one per strongly connected component of more than one folder
 * (Tarjan): a loop of folders with the import behind each arrow, then every folder of the knot.
 */
function folderCycles(graph: FolderGraph): string[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) components.push(component);
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return components.map(
    (component) =>
      `${describeLoop(graph, new Set(component))}\n  (all tied in one knot: ${component.sort().join(', ')})`,
  );
}

/** A loop through the component's first folder (breadth-first, so the shortest), with its imports. */
function describeLoop(graph: FolderGraph, component: Set<string>): string {
  const start = [...component].sort()[0]!;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  let last: string | undefined;
  while (queue.length > 0 && !last) {
    const node = queue.shift()!;
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!component.has(next)) continue;
      if (next === start) {
        last = node;
        break;
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, node);
        queue.push(next);
      }
    }
  }
  const loop = [last!];
  while (loop[0] !== start) loop.unshift(cameFrom.get(loop[0]!)!);
  loop.push(start);
  const arrows = loop.slice(1).map((to, i) => `    ${graph.get(loop[i]!)!.get(to)!}`);
  return [loop.join(' -> '), ...arrows].join('\n');
}

describe('server/src import graph', () => {
  it('finds the loop in a graph that has one, and none in a graph that has none', () => {
    const graph = (arrows: [string, string][]): FolderGraph => {
      const g: FolderGraph = new Map();
      for (const [from, to] of arrows) {
        g.set(from, (g.get(from) ?? new Map()).set(to, `${from}/x.ts -> ${to}/y.ts`));
      }
      return g;
    };
    expect(
      folderCycles(
        graph([
          ['a', 'b'],
          ['b', 'c'],
          ['a', 'c'],
        ]),
      ),
    ).to.deep.equal([]);
    expect(
      folderCycles(
        graph([
          ['a', 'b'],
          ['b', 'c'],
          ['c', 'a'],
          ['c', 'd'],
        ]),
      ),
    ).to.deep.equal([
      'a -> b -> c -> a\n    a/x.ts -> b/y.ts\n    b/x.ts -> c/y.ts\n    c/x.ts -> a/y.ts\n  (all tied in one knot: a, b, c)',
    ]);
  });

  it('has no cycle between the top-level folders of server/src', () => {
    const graph = serverFolderGraph();
    expect(graph.size, 'the graph was read').to.be.greaterThan(10);
    const cycles = folderCycles(graph);
    expect(cycles, `folders that import each other:\n${cycles.join('\n')}`).to.deep.equal([]);
  });
});
