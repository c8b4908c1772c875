/**
 * The first step of "Add Connection": a provider preset (Neon over HTTP, Turso over WebSocket...) or
 * a plain driver. Drivers come from the registry and presets from ./presets.ts, so either
 * list grows without a change here; a preset whose driver is not installed is left out.
 */
import type { DriverRegistry } from '../../core/driver';
import { PROVIDER_PRESETS, presetTargetSpec } from './presets';
import type { TargetSpec } from '../../shared/plan';

export interface ConnectionChoice {
  /** Heading the choice is listed under: a provider's name, or "Drivers". */
  group: string;
  label: string;
  description: string;
  detail: string;
  driver: string;
  example: string;
  /** Builds the target for a connection name; presets add their query and options. */
  target(name: string): TargetSpec;
}

export function connectionChoices(registry: DriverRegistry): ConnectionChoice[] {
  const known = new Set(registry.ids());
  const presets = PROVIDER_PRESETS.flatMap((preset) =>
    preset.targets
      .filter((t) => known.has(t.driver))
      .map((t): ConnectionChoice => ({
        group: preset.name,
        label: t.label,
        description: t.driver,
        detail: t.note ? `${t.connectionHint}. ${t.note}` : t.connectionHint,
        driver: t.driver,
        example: t.connectionExample,
        target: (name) => presetTargetSpec(preset.id, t.id, { name, connection: `secret:${name}` }),
      })),
  );
  const drivers = registry.ids().flatMap((id): ConnectionChoice[] => {
    const info = registry.info(id);
    if (!info) return [];
    return [
      {
        group: 'Drivers',
        label: id,
        description: `${info.transport} · ${info.schemes.map((s) => `${s}:`).join(' ')}`,
        detail: info.description,
        driver: id,
        example: info.connectionExample,
        target: (name) => ({ name, driver: id, connection: `secret:${name}` }),
      },
    ];
  });
  return [...presets, ...drivers];
}
