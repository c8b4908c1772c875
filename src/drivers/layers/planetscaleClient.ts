/**
 * Layers over PlanetScale take a `Client` of the app's own @planetscale/database (they check it with
 * instanceof): one made from the driver's connection's config, whose fetch is the driver's watched
 * HTTP session, so the layer's requests go over the same connection.
 */
import type { LayerImports } from './layerImport';

interface PlanetscaleModule {
  Client: new (config: unknown) => unknown;
}

export async function appPlanetscaleClient(connection: unknown, imports: LayerImports): Promise<unknown> {
  const { Client } = await imports.load<PlanetscaleModule>('@planetscale/database');
  return new Client((connection as { config: unknown }).config);
}
