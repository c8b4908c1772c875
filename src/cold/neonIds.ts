/** Neon ids from a connection string: the endpoint is the first label of the host (`ep-...`). */

const ENDPOINT_LABEL = /^(ep-[a-z0-9-]{1,60}?)(?:-pooler)?$/;

/** The endpoint id of a Neon host (`ep-cool-darkness-123456[-pooler].region.aws.neon.tech`), if any. */
export function endpointIdFromUrl(url: string): string | undefined {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return undefined;
  }
  const label = host.split('.')[0] ?? '';
  if (label.length > 63) return undefined;
  return ENDPOINT_LABEL.exec(label)?.[1];
}
