/**
 * A target's `http` field: which HTTP version its fetch-based driver speaks. Whether the driver
 * speaks HTTP at all is known only once its connection string is read (libsql: http or ws), so
 * slot.ts refuses the field on a target that does not; here only its shape is checked.
 */
import { HTTP_VERSIONS, type HttpVersion, type TargetHttp } from '../../shared/plan';
import { isRecord, objectOf, short, type PlanIssue } from './fields';

export function validateHttp(value: unknown, path: string, issues: PlanIssue[]): TargetHttp | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value)) {
    issues.push({ path, message: 'must be an object like {"version": "2"}' });
    return undefined;
  }
  const raw = objectOf(value, path, ['version'], issues);
  if (raw.version === undefined) {
    issues.push({
      path: `${path}.version`,
      message: `is required: "1.1" or "2"; leave "http" out for what Node's own fetch speaks (HTTP/1.1)`,
    });
    return undefined;
  }
  const version = httpVersion(raw.version);
  if (version === undefined) {
    issues.push({
      path: `${path}.version`,
      message: `must be "1.1" (offer only http/1.1) or "2" (offer h2 in the TLS handshake) (got ${short(raw.version)})`,
    });
    return undefined;
  }
  return { version };
}

/** "2" and "1.1", and the numbers 2 and 1.1 a JSON file may hold for them. */
function httpVersion(value: unknown): HttpVersion | undefined {
  const text = typeof value === 'number' ? String(value) : value;
  return HTTP_VERSIONS.find((version) => version === text);
}
