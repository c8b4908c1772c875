/**
 * The sticky pull-request comment: one comment per config and pull request, found again by a hidden
 * marker and edited in place on every later run, through GitHub's REST API (GITHUB_API_URL, so
 * GitHub Enterprise Server works too) with the job's token. Plain fetch, no dependencies.
 */

/** A comment body must stay under GitHub's 65,536 characters; the report is cut to fit. */
export const MAX_BODY_CHARS = 65_000;
/** Comments are read 100 a page, at most this many pages (a pull request with 1,000 comments). */
const MAX_PAGES = 10;
const TIMEOUT_MS = 15_000;

/** The hidden line that names this action's comment for one config. */
export function commentMarker(key) {
  return `<!-- dbprobe-action-comment: ${key.replace(/--/g, '-')} -->`;
}

/** The pull request an event is about (pull_request, pull_request_target, a comment on one), if any. */
export function pullRequestNumber(event) {
  const number = event?.pull_request?.number ?? (event?.issue?.pull_request ? event.issue.number : undefined);
  return Number.isInteger(number) ? number : undefined;
}

/** The body: marker, verdicts, a link to the run, and the full report folded away (cut to fit). */
export function commentBody({ marker, verdicts, report, runUrl }) {
  const head = [marker, verdicts, ...(runUrl ? [`[The job's run](${runUrl})`, ''] : [])].join('\n');
  const room = MAX_BODY_CHARS - head.length - 200;
  const shown =
    report.length <= room
      ? report
      : `${report.slice(0, Math.max(0, room))}\n\n_The report is cut here; the job summary holds all of it._\n`;
  return `${head}\n<details><summary>The full report</summary>\n\n${shown}\n</details>\n`;
}

class GitHubApiError extends Error {}

/** Creates the comment, or updates the one that holds the marker; returns which, and its id. */
export async function upsertComment({ apiUrl, token, repository, issue, marker, body, fetchImpl = fetch }) {
  const base = `${apiUrl.replace(/\/+$/, '')}/repos/${repository}`;
  const call = async (method, url, payload) => {
    const response = await fetchImpl(url, {
      method,
      headers: {
        Accept: 'application/vnd.github+json',
        Authorization: `Bearer ${token}`,
        'X-GitHub-Api-Version': '2022-11-28',
        'User-Agent': 'dbprobe-action',
        ...(payload ? { 'Content-Type': 'application/json' } : {}),
      },
      ...(payload ? { body: JSON.stringify(payload) } : {}),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const text = await response.text();
    let json;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    if (!response.ok)
      throw new GitHubApiError(
        `${method} ${url.slice(apiUrl.length)} answered ${response.status}${json?.message ? ` (${json.message})` : ''}`,
      );
    return json;
  };

  let existing;
  for (let page = 1; page <= MAX_PAGES && !existing; page++) {
    const comments = await call('GET', `${base}/issues/${issue}/comments?per_page=100&page=${page}`);
    if (!Array.isArray(comments)) throw new GitHubApiError('the comments list is not a JSON array');
    existing = comments.find((c) => typeof c.body === 'string' && c.body.includes(marker));
    if (comments.length < 100) break;
  }
  if (existing) {
    const updated = await call('PATCH', `${base}/issues/comments/${existing.id}`, { body });
    return { action: 'updated', id: existing.id, url: updated?.html_url };
  }
  const created = await call('POST', `${base}/issues/${issue}/comments`, { body });
  return { action: 'created', id: created?.id, url: created?.html_url };
}
