/**
 * A minimal reader of zip files such as a .vsix: the central directory, stored and deflated
 * entries. No zip64, encryption or multi-disk archives (vsce writes none of these).
 */
import { inflateRawSync } from 'node:zlib';

export interface ZipEntry {
  name: string;
  compressedBytes: number;
  bytes: number;
  read(): Buffer;
}

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
/** The end record is 22 bytes plus a comment of at most 65,535. */
const END_SEARCH = 22 + 0xffff;

export function readZip(zip: Buffer): ZipEntry[] {
  let end = -1;
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - END_SEARCH); at--) {
    if (zip.readUInt32LE(at) === END_OF_DIRECTORY) {
      end = at;
      break;
    }
  }
  if (end < 0) throw new Error('not a zip file: no end-of-central-directory record');
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== DIRECTORY_ENTRY)
      throw new Error(`zip central directory entry ${i} is damaged`);
    const method = zip.readUInt16LE(at + 10);
    const compressedBytes = zip.readUInt32LE(at + 20);
    const bytes = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const localHeader = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    if (compressedBytes === 0xffffffff || localHeader === 0xffffffff)
      throw new Error(`${name}: zip64 is not supported`);
    entries.push({
      name,
      compressedBytes,
      bytes,
      read: () => {
        if (zip.readUInt32LE(localHeader) !== LOCAL_HEADER) throw new Error(`${name}: damaged local header`);
        const start =
          localHeader + 30 + zip.readUInt16LE(localHeader + 26) + zip.readUInt16LE(localHeader + 28);
        const data = zip.subarray(start, start + compressedBytes);
        if (method === 0) return Buffer.from(data);
        if (method === 8) return inflateRawSync(data, { maxOutputLength: Math.max(bytes, 1) });
        throw new Error(`${name}: compression method ${method} is not supported`);
      },
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}
