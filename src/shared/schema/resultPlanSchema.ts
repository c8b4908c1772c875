/**
 * The plan as a result records it: how it was measured, without the targets (listed apart) and the
 * engine's own stop rule. The plan's own settings, in the form a checked plan holds them (kinds, load
 * levels and the smallest effect filled in and parsed).
 */
import * as z from 'zod/mini';
import { fanOutSchema, loadPlanOutputSchema } from './loadSchema';
import { minEffectValueSchema, planSettingsShape } from './planSchema';
import { PROBE_KINDS } from './planValues';

const {
  maxConsecutiveErrors: _engineOnly,
  kinds: _given,
  load: _filled,
  minEffect: _parsed,
  ...settings
} = planSettingsShape;

export const resultPlanSchema = z.strictObject({
  ...settings,
  kinds: z.array(z.enum(PROBE_KINDS)),
  load: z.optional(loadPlanOutputSchema),
  minEffect: z.optional(minEffectValueSchema),
  fanOut: z.optional(fanOutSchema),
});

export type ResultPlan = z.output<typeof resultPlanSchema>;
