/**
 * Reads connection strings out of a .env file for "Import Connections from .env". Parsing only:
 * the caller decides what to import and puts it in SecretStorage, nowhere else.
 */
import { parse } from 'dotenv';

export interface DotenvEntry {
  key: string;
  value: string;
}

/**
 * The entries as the app's own `dotenv` reads the file (`export` prefix, quotes, inline comments,
 * values over several lines, `\n` in "..."), so what is imported is what the app connects with: a
 * key given twice keeps its last value, and an unquoted `#` starts a comment there too.
 */
export function parseDotenv(text: string): DotenvEntry[] {
  return Object.entries(parse(text)).map(([key, value]) => ({ key, value }));
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
