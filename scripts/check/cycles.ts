/**
 * `npm run check:cycles`: no import cycle among the source files of src/ and webview/. A cycle makes
 * module load order matter (a value read before its module ran is undefined) and two files that can
 * only change together. Every import, export-from, dynamic import() and require() of a relative
 * path counts, type-only ones too: types shared by two files go in a third both import.
 * Specifiers are read with the TypeScript compiler's own pre-processor, not a regex.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '..', '..');
const SOURCE_DIRS = ['src', 'webview'];

/** Every .ts file under the given folders (absolute paths), sorted. */
export function sourceFiles(root: string, dirs: readonly string[]): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts')) files.push(full);
    }
  };
  for (const dir of dirs) if (fs.existsSync(path.join(root, dir))) walk(path.join(root, dir));
  return files.sort();
}

/** The file a relative specifier names, as Node's resolution (moduleResolution node10) finds it. */
function resolveRelative(from: string, specifier: string, known: ReadonlySet<string>): string | undefined {
  const base = path.resolve(path.dirname(from), specifier);
  const candidates = [base, `${base}.ts`, `${base}.d.ts`, path.join(base, 'index.ts')];
  return candidates.find((c) => known.has(c));
}

/** Each file's relative imports that resolve to another file of the set. */
export function importGraph(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const info = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
    const targets = info.importedFiles
      .map((f) => f.fileName)
      .filter((s) => s.startsWith('./') || s.startsWith('../'))
      .map((s) => resolveRelative(file, s, known))
      .filter((t): t is string => t !== undefined);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/**
 * One cycle per strongly connected group of files (Tarjan), as a path that starts and ends at the
 * same file; each group's other cycles go away with the same fix, and the next run names any left.
 */
export function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const groups: string[][] = [];
  const connect = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter);
    counter += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      for (let w = stack.pop(); w !== undefined; w = stack.pop()) {
        onStack.delete(w);
        group.push(w);
        if (w === v) break;
      }
      const selfLoop = (graph.get(v) ?? []).includes(v);
      if (group.length > 1 || selfLoop) groups.push(group);
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) connect(v);
  return groups.map((group) => cycleWithin(graph, new Set(group)));
}

/** The shortest way back to a group's first file (breadth-first inside the group). */
function cycleWithin(graph: ReadonlyMap<string, readonly string[]>, group: ReadonlySet<string>): string[] {
  const start = [...group].sort()[0] ?? '';
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const v = queue[i] ?? '';
    for (const w of graph.get(v) ?? []) {
      if (!group.has(w)) continue;
      if (w === start) {
        const between: string[] = [];
        for (let at: string | undefined = v; at !== undefined && at !== start; at = cameFrom.get(at))
          between.unshift(at);
        return [start, ...between, start];
      }
      if (!cameFrom.has(w)) {
        cameFrom.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}

if (require.main === module) {
  const cycles = findCycles(importGraph(sourceFiles(ROOT, SOURCE_DIRS)));
  for (const cycle of cycles) {
    console.error(`import cycle: ${cycle.map((f) => path.relative(ROOT, f)).join(' -> ')}`);
  }
  if (cycles.length > 0) {
    console.error(
      `${cycles.length} import cycle(s) in ${SOURCE_DIRS.join('/, ')}/: move what both files need into a third file both import, or let the parent own the dispatch.`,
    );
    process.exit(1);
  }
  console.log(`no import cycle in ${SOURCE_DIRS.join('/, ')}/`);
}
