/**
 * `dbprobe drivers`: what can be probed, over which transport, with which package version, and the
 * ORM layers (`"orm"` on a target) that run over each driver.
 */
import { parseFlags } from '../parseFlags';
import { createRegistry } from '../../drivers/registry';
import { layerInfo, layersOver } from '../../shared/layerCatalog';
import { cliPackageLookup } from '../projectPackages';
import type { CliIo } from '../io';

export async function driversCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseFlags({
    args: argv,
    options: { json: { type: 'boolean', default: false } },
    strict: true,
  });
  const registry = createRegistry(undefined, cliPackageLookup(undefined, io.cwd));
  const rows = registry.ids().map((id) => {
    const info = registry.info(id)!;
    return {
      id,
      transport: info.transport,
      package: info.packageName,
      version: registry.packageSource(id)?.version ?? 'not installed',
      source: registry.packageSource(id)?.source,
      schemes: info.schemes,
      defaultQuery: info.defaultQuery,
      connectionExample: info.connectionExample,
      description: info.description,
      layers: layersOver(id).map((layer) => ({ id: layer, package: layerInfo(layer).packageName })),
    };
  });
  if (values.json) {
    io.stdout.write(JSON.stringify(rows, null, 2) + '\n');
    return 0;
  }
  const header = ['driver', 'transport', 'package', 'version', 'orm layers', 'connection string'];
  const table = [
    header,
    ...rows.map((r) => [
      r.id,
      r.transport,
      r.package,
      r.version,
      r.layers.map((layer) => layer.id).join(', ') || '-',
      r.connectionExample,
    ]),
  ];
  const widths = header.map((_, i) => Math.max(...table.map((row) => (row[i] ?? '').length)));
  for (const row of table)
    io.stdout.write(
      row
        .map((cell, i) => cell.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd() + '\n',
    );
  return 0;
}
