// The config schema's `driver` (schema/dbprobe.schema.json) and the `dbprobe.targets` setting's
// (package.json) list exactly the driver catalog's ids (src/drivers/catalog.ts), so an editor flags
// `"driver": "postgres"` as the CLI does. `npm run schema` rewrites both from the catalog;
// `--check` only says whether they are current (test/unit/schema.test.ts checks the same).
const fs = require('node:fs');
const path = require('node:path');
const { loadDriverCatalog } = require('./driverCatalog.cjs');

const ROOT = path.resolve(__dirname, '..', '..');
const SCHEMA = path.join(ROOT, 'schema', 'dbprobe.schema.json');
const MANIFEST = path.join(ROOT, 'package.json');

/** The config schema with its driver property generated from the catalog; other keys untouched. */
function configSchemaWithCatalog(schema, catalog = loadDriverCatalog()) {
  const next = structuredClone(schema);
  const properties = next.properties.targets.items.properties;
  const { examples: _examples, enum: _enum, enumDescriptions: _described, ...rest } = properties.driver;
  properties.driver = {
    ...rest,
    enum: catalog.map((info) => info.id),
    // VS Code shows these beside each completion; other editors ignore the keyword.
    enumDescriptions: catalog.map((info) => info.description),
  };
  return next;
}

/** The extension manifest with the `dbprobe.targets` setting's driver enum from the catalog. */
function manifestWithCatalog(manifest, catalog = loadDriverCatalog()) {
  const next = structuredClone(manifest);
  const driver = next.contributes.configuration.properties['dbprobe.targets'].items.properties.driver;
  driver.enum = catalog.map((info) => info.id);
  return next;
}

async function formatted(file, value) {
  const prettier = require('prettier');
  const options = (await prettier.resolveConfig(file)) ?? {};
  return prettier.format(JSON.stringify(value, null, 2), { ...options, filepath: file });
}

async function main() {
  const check = process.argv.includes('--check');
  const files = [
    [SCHEMA, configSchemaWithCatalog],
    [MANIFEST, manifestWithCatalog],
  ];
  const stale = [];
  for (const [file, generate] of files) {
    const text = fs.readFileSync(file, 'utf8');
    const next = await formatted(file, generate(JSON.parse(text)));
    if (next === text) continue;
    stale.push(path.relative(ROOT, file));
    if (!check) fs.writeFileSync(file, next);
  }
  if (check && stale.length > 0) {
    process.stderr.write(
      `${stale.join(', ')}: driver list out of date with the catalog: run \`npm run schema\`\n`,
    );
    process.exit(1);
  }
  process.stderr.write(stale.length > 0 ? `rewrote ${stale.join(', ')}\n` : 'driver lists are current\n');
}

module.exports = { configSchemaWithCatalog, manifestWithCatalog };

if (require.main === module)
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
