/** The statement under a cursor: pure, for the context key and for the command that probes it. */

/** The first statement whose range holds the offset (its end included, where a cursor stops). */
export function statementAt<S extends { start: number; end: number }>(
  statements: readonly S[],
  offset: number,
): S | undefined {
  return statements.find((s) => s.start <= offset && offset <= s.end);
}
