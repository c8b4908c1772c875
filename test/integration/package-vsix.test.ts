/**
 * Every platform's VSIX: each package `npm run package` builds holds the libSQL native
 * package of its own target (named for it, and machine code built for it: read from the binary's
 * header), the universal one holds no native code at all, and each stays within MAX_VSIX_BYTES.
 * The packages are built here when missing or stale (see test/helpers/vsixPackages.ts).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { before, describe, test } from 'node:test';
import { brotliDecompressSync } from 'node:zlib';
import { describeNativeBinary } from '../../scripts/package/nativeBinary';
import { MAX_VSIX_BYTES, vsixTargets, type VsixIndex } from '../../scripts/package/targets';
import { readZip, type ZipEntry } from '../../scripts/package/zip';
import { builtVsixPackages } from '../helpers/vsixPackages';

const NATIVE_SCOPE = 'extension/dist/node_modules/@libsql/';
/** Native code in any form: a module, a compressed one, a shared library. */
const NATIVE_CODE = /\.(node|node\.br|so|dylib|dll)$/;

interface NativeManifest {
  name: string;
  os?: string[];
  cpu?: string[];
  neon?: { platform?: string; arch?: string; abi?: string | null };
}

function entry(entries: ZipEntry[], name: string): ZipEntry {
  const found = entries.find((e) => e.name === name);
  assert.ok(found, `${name} is in the package`);
  return found;
}

describe('per-platform VSIX packages', () => {
  let index: VsixIndex;
  before(() => {
    index = builtVsixPackages((line) => console.log(`  ${line}`));
  });

  test('npm run package built one package per target, universal included', () => {
    assert.deepEqual(
      index.packages.map((p) => p.target),
      vsixTargets().map((t) => t.target),
    );
  });

  for (const target of vsixTargets()) {
    test(`${target.target}: ${target.native ? `holds ${target.native.packageName} and no other native code` : 'holds no native code'}`, () => {
      const built = index.packages.find((p) => p.target === target.target);
      assert.ok(built, `a package for ${target.target}`);
      const bytes = fs.statSync(built.file).size;
      assert.equal(bytes, built.bytes, 'the size npm run package printed is the file size');
      assert.ok(
        bytes <= MAX_VSIX_BYTES,
        `${path.basename(built.file)} is ${bytes} bytes, over ${MAX_VSIX_BYTES}`,
      );

      const entries = readZip(fs.readFileSync(built.file));
      const manifest = entry(entries, 'extension.vsixmanifest').read().toString('utf8');
      const platform = /<Identity\b[^>]*?\bTargetPlatform="([^"]+)"/.exec(manifest.slice(0, 10_000))?.[1];
      assert.equal(
        platform,
        target.target === 'universal' ? undefined : target.target,
        'vsixmanifest target',
      );
      // Every package carries the same bundles; only native code differs.
      for (const bundle of [
        'extension.js',
        'extensionBody.js',
        'probeWorker.js',
        'webview.js',
        'drivers/libsql.js',
        'drivers/pg.js',
        'node_modules/undici/index.js',
      ])
        entry(entries, `extension/dist/${bundle}`);
      // The Marketplace's Changelog tab: vsce stores the file under a lower-case name and names it
      // in the manifest's assets.
      entry(entries, 'extension/changelog.md');
      assert.match(manifest, /Type="Microsoft\.VisualStudio\.Services\.Content\.Changelog"/);

      const nativeCode = entries.filter((e) => NATIVE_CODE.test(e.name)).map((e) => e.name);
      const nativePackages = [
        ...new Set(entries.filter((e) => e.name.startsWith(NATIVE_SCOPE)).map((e) => e.name.split('/')[4])),
      ];
      if (!target.native) {
        assert.deepEqual(nativeCode, [], 'no native code');
        assert.deepEqual(nativePackages, [], 'no @libsql native package');
        assert.ok(
          !entries.some((e) => e.name.startsWith('extension/dist/node_modules/libsql/')),
          'no libsql',
        );
        return;
      }
      const dir = `extension/dist/node_modules/${target.native.packageName}/`;
      assert.deepEqual(
        nativePackages,
        [target.native.packageName.split('/')[1]],
        'one native package, the target’s',
      );
      assert.deepEqual(nativeCode, [`${dir}index.node.br`], 'its compressed engine is the only native code');
      entry(entries, 'extension/dist/node_modules/libsql/index.js');

      const pkg = JSON.parse(entry(entries, `${dir}package.json`).read().toString('utf8')) as NativeManifest;
      assert.equal(pkg.name, target.native.packageName);
      assert.deepEqual(pkg.os, [target.native.platform]);
      assert.deepEqual(pkg.cpu, [target.native.arch]);
      assert.equal(pkg.neon?.platform, target.native.platform);
      assert.equal(pkg.neon?.arch, target.native.arch);

      const engine = brotliDecompressSync(entry(entries, `${dir}index.node.br`).read(), {
        maxOutputLength: 64 << 20,
      });
      const builtFor = describeNativeBinary(engine);
      assert.deepEqual(
        builtFor,
        {
          platform: target.native.platform,
          arch: target.native.arch,
          ...(target.native.abi ? { abi: target.native.abi } : {}),
        },
        'the engine’s machine code is built for the target',
      );
    });
  }
});
