/**
 * The last branch of a `switch` over a union: the compiler proves every case is handled (a new member
 * without a case is a type error here), and a value that breaks the types at run time fails loudly.
 * Pure and dependency-free, so the engine, the extension and the webview all use this one copy.
 */
export function assertNever(value: never, what = 'value'): never {
  throw new Error(`unexpected ${what}: ${JSON.stringify(value)}`);
}
