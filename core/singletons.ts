/**
 * A process-wide record of modules that hold state for the whole process (a payment runtime, a cache).
 * Each such module calls registerSingleton(name) once when it is evaluated. In a healthy process every
 * name is registered exactly once; a count of 2 means the module was instantiated twice (the same file
 * loaded by two module graphs, e.g. from source and from a bundle), so its state is split in two.
 * tests/http/module-graph.test.ts asserts the counts on a running shop.
 *
 * The record itself lives on globalThis (under a Symbol.for key) on purpose: it must count across
 * copies, including a second copy of this very module. No other state belongs there.
 */
const KEY = Symbol.for("maskerade.singletons");
const registry = ((globalThis as { [KEY]?: Map<string, number> })[KEY] ??= new Map<string, number>());

/** Records that the module holding `name` has been evaluated (call once, at module level). */
export function registerSingleton(name: string): void {
  registry.set(name, (registry.get(name) ?? 0) + 1);
}

/** How many times each registered name was instantiated in this process. */
export function singletonCounts(): ReadonlyMap<string, number> {
  return new Map(registry);
}
