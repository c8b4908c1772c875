/**
 * The `cold` kind's settings, defined once: the plan's sample count and pauses, and each target's way
 * of making its database cold (plan.ts re-exports the types).
 */
import * as z from 'zod/mini';
import { PLAN_LIMITS } from '../limits';
import { described, objectLike, REFERENCE_PATTERN, wholeIn } from './fieldRules';

import { COLD_DEFAULT_VALUES as COLD, COLD_MODES } from './planValues';

const NEON_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;
const neonId = z
  .string()
  .check(z.regex(NEON_ID, { error: 'must be a Neon id such as "ep-cool-darkness-123456"' }));

export const neonColdSchema = z.strictObject(
  {
    /** Where the key lives: `env:NEON_API_KEY` (CLI) or `secret:NAME` (VS Code). Never the key itself. */
    apiKey: described(
      z.optional(
        z.string().check(
          z.regex(REFERENCE_PATTERN, {
            error:
              'must be a reference like "env:NEON_API_KEY" (or "secret:NAME" in VS Code); never write the key itself into a file',
          }),
        ),
      ),
      'Where the Neon API key lives; never the key itself.',
    ),
    /** Neon project id (console: Settings). Not in the connection string, so it must be given. */
    projectId: described(z.optional(neonId), 'Neon project id (console: Settings).'),
    /** `ep-...`; parsed from the connection string's host when absent. */
    endpointId: described(z.optional(neonId), "ep-...; read from the connection string's host when absent."),
    /** The API's base URL; https://console.neon.tech/api/v2 unless a test or proxy says otherwise. */
    apiUrl: z.optional(
      z.pipe(
        z.string().check(z.regex(/^https?:\/\/[^\s]{1,2000}$/, { error: 'must be an http(s) URL' })),
        z.transform((url) => url.replace(/\/+$/, '')),
      ),
    ),
  },
  { error: objectLike('{"projectId": "...", "apiKey": "env:NEON_API_KEY"}') },
);

const COMMAND_TEXT =
  'must be the program and its arguments as a list, run without a shell, e.g. ["fly", "machine", "stop", "MACHINE_ID"]';

const COLD_EXAMPLE = '{"mode": "neon-api", "neon": {"projectId": "..."}}';

export const coldTargetSchema = z
  .strictObject(
    {
      mode: described(
        z.enum(COLD_MODES, { error: `must be one of: ${COLD_MODES.join(', ')} (e.g. ${COLD_EXAMPLE})` }),
        "neon-api: suspend the endpoint through Neon's API and poll until idle; idle-wait: wait idleMs without traffic; command: run `command` first (no shell).",
      ),
      /** idle-wait: how long the target must sit untouched before a sample (ms). */
      idleMs: described(
        z.optional(wholeIn(1, PLAN_LIMITS.coldIdleMs)),
        'idle-wait: how long the provider needs without traffic before it sleeps.',
      ),
      /** command: the program and its arguments, run without a shell before each sample. */
      command: described(
        z.optional(
          z
            .array(
              z
                .string({ error: COMMAND_TEXT })
                .check(
                  z.minLength(1, { error: COMMAND_TEXT }),
                  z.maxLength(PLAN_LIMITS.coldArgChars, { error: COMMAND_TEXT }),
                ),
              { error: COMMAND_TEXT },
            )
            .check(
              z.minLength(1, { error: COMMAND_TEXT }),
              z.maxLength(PLAN_LIMITS.coldCommandArgs, { error: COMMAND_TEXT }),
            ),
        ),
        'command: the program and its arguments, e.g. ["fly", "machine", "stop", "ID"].',
      ),
      neon: z.optional(neonColdSchema),
    },
    { error: objectLike(COLD_EXAMPLE) },
  )
  .check(
    z.superRefine((cold, ctx) => {
      if (cold.mode === 'idle-wait' && cold.idleMs === undefined)
        ctx.issues.push({
          code: 'custom',
          path: ['idleMs'],
          input: cold,
          message:
            'is required for idle-wait: how long the provider needs without traffic before it sleeps (e.g. 300000 for five minutes)',
        });
      if (cold.mode === 'command' && cold.command === undefined)
        ctx.issues.push({
          code: 'custom',
          path: ['command'],
          input: cold,
          message: `is required for command: ${COMMAND_TEXT.replace('must be ', '')}`,
        });
    }),
  );

/** How cold samples are taken: each one costs a suspend, so they get their own count. */
export const coldPlanSchema = z.strictObject(
  {
    /** Cold samples per target (each followed by one hot connect). */
    samples: described(
      z._default(wholeIn(1, PLAN_LIMITS.coldSamples), COLD.samples),
      'Cold samples per target; each costs a suspend.',
    ),
    /** Pause between one cold sample's hot connect and the next suspend (ms). */
    pauseMs: described(
      z._default(wholeIn(0, PLAN_LIMITS.coldPauseMs), COLD.pauseMs),
      'Pause between a hot connect and the next suspend.',
    ),
    /** Longest wait for one suspend (API polling or command) before the sample fails (ms). */
    suspendTimeoutMs: described(
      z._default(wholeIn(1, PLAN_LIMITS.coldSuspendTimeoutMs), COLD.suspendTimeoutMs),
      'Longest wait for one suspend.',
    ),
  },
  { error: objectLike('{"samples": 5, "pauseMs": 1000, "suspendTimeoutMs": 120000}') },
);

export type NeonColdSpec = z.output<typeof neonColdSchema>;
export type ColdTargetSpec = z.output<typeof coldTargetSchema>;
export type ColdPlanSpec = z.output<typeof coldPlanSchema>;
