/**
 * libsql-server states each statement's own time (`query_duration_ms`) in its Hrana answers, and
 * @libsql/client drops it. The client takes a `fetch`, so the answer is read where the client
 * decodes it: the response's `json()` is wrapped, so the body is parsed once, by the client, and
 * the duration read from the parsed object (no second parse, nothing added to the request).
 */
import type { FetchLike } from './httpSession';

export class HranaDurations {
  /** The statements' time (ms) of the last answer, until serverUs() takes it. */
  private lastMs: number | undefined;

  /** The client's fetch: `inner`'s, with each pipeline answer's durations noted. */
  wrap(inner: FetchLike): FetchLike {
    return (input, init) => inner(input, init).then(this.watch);
  }

  /** The last answer's time in µs, once: a later answer without one reads as none. */
  serverUs(): number | undefined {
    const ms = this.lastMs;
    this.lastMs = undefined;
    return ms === undefined ? undefined : ms * 1000;
  }

  private readonly watch = <R extends { json(): Promise<unknown> }>(response: R): R => {
    const json = response.json.bind(response);
    response.json = () =>
      json().then((body) => {
        this.lastMs = pipelineDurationMs(body);
        return body;
      });
    return response;
  };
}

/**
 * The sum of `query_duration_ms` over the executed statements of a pipeline answer (`execute`
 * results, and each step of a `batch`); undefined when none carries one (an older server).
 */
export function pipelineDurationMs(body: unknown): number | undefined {
  const results = (body as { results?: unknown } | null)?.results;
  if (!Array.isArray(results)) return undefined;
  let total: number | undefined;
  const add = (result: unknown): void => {
    const ms = (result as { query_duration_ms?: unknown } | null)?.query_duration_ms;
    if (typeof ms === 'number' && Number.isFinite(ms) && ms >= 0) total = (total ?? 0) + ms;
  };
  for (const entry of results) {
    const response = (entry as { response?: { type?: unknown; result?: unknown } } | null)?.response;
    if (response?.type === 'execute') add(response.result);
    if (response?.type === 'batch') {
      const steps = (response.result as { step_results?: unknown } | null)?.step_results;
      if (Array.isArray(steps)) for (const step of steps) add(step);
    }
  }
  return total;
}
