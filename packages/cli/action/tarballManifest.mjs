/**
 * The package.json inside an npm package tarball (`package/package.json` of a gzipped tar), read
 * without extracting anything or spawning `tar`: the install step needs a local tarball's name and
 * version to find it in the tool cache before deciding whether npm must run at all.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

const BLOCK = 512;
/** npm packs every file under `package/`; the manifest is usually the first entry. */
const MANIFEST = 'package/package.json';

/** The parsed manifest; throws a sentence naming the file when it is not an npm package tarball. */
export function tarballManifest(file) {
  let tar;
  try {
    tar = gunzipSync(readFileSync(file));
  } catch (error) {
    throw new Error(`${file} is not a gzipped npm package tarball (${error.message})`, { cause: error });
  }
  for (let at = 0; at + BLOCK <= tar.length;) {
    const header = tar.subarray(at, at + BLOCK);
    if (header.every((byte) => byte === 0)) break;
    const name = field(header, 0, 100);
    const prefix = field(header, 345, 155);
    const size = Number.parseInt(field(header, 124, 12).trim() || '0', 8);
    if (!Number.isFinite(size) || size < 0) break;
    const body = at + BLOCK;
    if ((prefix ? `${prefix}/${name}` : name) === MANIFEST)
      return JSON.parse(tar.subarray(body, body + size).toString('utf8'));
    at = body + Math.ceil(size / BLOCK) * BLOCK;
  }
  throw new Error(`${file} holds no ${MANIFEST}: it is not an npm package tarball`);
}

function field(header, start, length) {
  const bytes = header.subarray(start, start + length);
  const end = bytes.indexOf(0);
  return bytes.subarray(0, end === -1 ? length : end).toString('utf8');
}
