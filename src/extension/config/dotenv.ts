/**
 * Reads connection strings out of a .env file for "Import Connections from .env". Parsing only:
 * the caller decides what to import and puts it in SecretStorage, nowhere else.
 */

export interface DotenvEntry {
  key: string;
  value: string;
  line: number;
}

/** KEY=value lines as dotenv writes them: `export` prefix, quotes, inline comments, \n in "...". */
export function parseDotenv(text: string): DotenvEntry[] {
  const entries: DotenvEntry[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] ?? '';
    const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*)$/.exec(raw);
    if (!match) continue;
    const key = match[1] ?? '';
    let rest = match[2] ?? '';
    let value: string;
    const quote = rest[0];
    if (quote === '"' || quote === "'" || quote === '`') {
      // A quoted value may run over several lines.
      let body = rest.slice(1);
      let end = body.indexOf(quote);
      while (end === -1 && i + 1 < lines.length) {
        i++;
        body += '\n' + (lines[i] ?? '');
        end = body.indexOf(quote);
      }
      value = end === -1 ? body : body.slice(0, end);
      if (quote === '"') value = value.replace(/\\n/g, '\n').replace(/\\"/g, '"');
    } else {
      const hash = rest.search(/\s#/);
      if (hash !== -1) rest = rest.slice(0, hash);
      value = rest.trim();
    }
    entries.push({ key, value, line: i + 1 });
  }
  return entries;
}

export interface ConnectionCandidate {
  key: string;
  value: string;
  scheme: string;
  /** Drivers whose schemes accept this URL, best first. */
  drivers: string[];
  /** A connection name derived from the key: DATABASE_URL -> database, REDIS_URL -> redis. */
  suggestedName: string;
}

const URLISH_KEY = /(_URL|_URI|_DSN|_CONNECTION_STRING|^DATABASE_URL|^DB_URL)$/i;

/** Entries that look like database connection strings: `*_URL`-style keys holding a `scheme:` value. */
export function connectionCandidates(
  entries: readonly DotenvEntry[],
  drivers: readonly { id: string; schemes: readonly string[] }[],
): ConnectionCandidate[] {
  const out: ConnectionCandidate[] = [];
  for (const entry of entries) {
    if (!URLISH_KEY.test(entry.key)) continue;
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(entry.value.trim())?.[1]?.toLowerCase();
    if (!scheme) continue;
    const matching = drivers.filter((d) => d.schemes.includes(scheme)).map((d) => d.id);
    // Plain http(s) URLs are mostly APIs, not databases; offer them only when a driver claims them.
    if (matching.length === 0) continue;
    out.push({
      key: entry.key,
      value: entry.value.trim(),
      scheme,
      drivers: matching,
      suggestedName: suggestName(entry.key),
    });
  }
  return out;
}

export function suggestName(key: string): string {
  const base = key
    .replace(/_(URL|URI|DSN|CONNECTION_STRING)$/i, '')
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, '-')
    .replace(/^[^a-z_]+/, '');
  return base || 'database';
}
