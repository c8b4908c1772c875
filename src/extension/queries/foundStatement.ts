/**
 * One statement found in a document: what a CodeLens offers to probe. Its own file because
 * statements.ts dispatches to the recognisers (jsStatements, mongoCalls, redisCalls) and they all
 * return it: with the type here, no recogniser imports the file that calls it.
 */
import type { QueryFamily } from '../../shared/classify';
import type { SqlParameter } from './parameters';

export interface FoundStatement {
  family: QueryFamily;
  /** The workload as its driver takes it (SQL text, a Redis command line, `find coll {...}`). */
  text: string;
  /** Offsets in the document's text: where the lens goes and what a run is remembered by. */
  start: number;
  end: number;
  /** How it was recognised, for the lens tooltip: "sql`...`", ".query(...)", "a .sql file"... */
  origin: string;
  /** SQL placeholders to fill before it can run (offsets in `text`). */
  parameters?: SqlParameter[];
}
