/**
 * What a native module was built for, read from its own header (ELF, Mach-O or PE): the package
 * name and package.json can say anything, the machine code cannot.
 */

export interface BinaryTarget {
  platform: 'linux' | 'darwin' | 'win32';
  arch: 'x64' | 'arm64' | 'arm' | 'unknown';
  /** Linux only: which C library the module links against. */
  abi?: 'gnu' | 'musl';
}

const ELF_MACHINES: Record<number, BinaryTarget['arch']> = { 0x3e: 'x64', 0xb7: 'arm64', 0x28: 'arm' };
const MACHO_CPUS: Record<number, BinaryTarget['arch']> = { 0x01000007: 'x64', 0x0100000c: 'arm64' };
const PE_MACHINES: Record<number, BinaryTarget['arch']> = { 0x8664: 'x64', 0xaa64: 'arm64' };

export function describeNativeBinary(binary: Buffer): BinaryTarget {
  if (binary.length < 64) throw new Error(`not a native module: ${binary.length} bytes`);
  if (binary.readUInt32BE(0) === 0x7f454c46) {
    // Little-endian ELF: e_machine at 0x12. The C library it needs (a NUL-delimited name in its
    // dynamic string table) tells glibc's libc.so.6 from musl's libc.so.
    const arch = ELF_MACHINES[binary.readUInt16LE(0x12)] ?? 'unknown';
    if (binary.includes('\0libc.so.6\0')) return { platform: 'linux', arch, abi: 'gnu' };
    if (binary.includes('\0libc.so\0') || binary.includes('ld-musl-'))
      return { platform: 'linux', arch, abi: 'musl' };
    return { platform: 'linux', arch };
  }
  if (binary.readUInt32LE(0) === 0xfeedfacf) {
    return { platform: 'darwin', arch: MACHO_CPUS[binary.readUInt32LE(4)] ?? 'unknown' };
  }
  if (binary.readUInt16LE(0) === 0x5a4d) {
    const pe = binary.readUInt32LE(0x3c);
    if (pe + 6 <= binary.length && binary.readUInt32LE(pe) === 0x00004550)
      return { platform: 'win32', arch: PE_MACHINES[binary.readUInt16LE(pe + 4)] ?? 'unknown' };
  }
  throw new Error(
    `not an ELF, Mach-O (64-bit, thin) or PE module (starts ${binary.subarray(0, 4).toString('hex')})`,
  );
}
