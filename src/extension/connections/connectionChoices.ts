/**
 * The first step of "Add Connection": which driver (and so which URL form) the connection uses.
 * Offered from the registry, so drivers added to src/drivers appear here without a change. Provider
 * presets (Neon, Supabase, Turso...) slot in as extra choices that name a driver and an example.
 */
import type { DriverRegistry } from '../../core/driver';

export interface ConnectionChoice {
  label: string;
  description: string;
  detail: string;
  driver: string;
  example: string;
}

export function connectionChoices(registry: DriverRegistry): ConnectionChoice[] {
  return registry.ids().flatMap((id) => {
    const info = registry.info(id);
    if (!info) return [];
    return [
      {
        label: id,
        description: `${info.transport} · ${info.schemes.map((s) => `${s}:`).join(' ')}`,
        detail: info.description,
        driver: id,
        example: info.connectionExample,
      },
    ];
  });
}
