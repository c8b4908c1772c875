/**
 * A target as a user writes it, defined once: its type (plan.ts re-exports it), its part of the
 * config's JSON Schema and the check of what arrives. The driver ids are the caller's (the catalog
 * lives outside this room), so the definition is built for a list of them.
 */
import * as z from 'zod/mini';
import { layerInfo, layersOver, ORM_LAYERS, ORM_QUERY_PATHS } from '../layerCatalog';
import { INPUT_LIMITS } from '../limits';
import { WORKLOAD_PRESET_IDS, WORKLOAD_PRESETS, type WorkloadPresetId } from '../workloadPresets';
import { coldTargetSchema } from './coldSchema';
import { described, objectLike, oneOf, REFERENCE_PATTERN, trueOrFalse } from './fieldRules';

export const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9 ._:/@()-]{0,63}$/;

import { TLS_MAX_VERSIONS, type HttpVersion } from './planValues';

/**
 * TLS trust of one target. Without it a driver trusts the system store (plus NODE_EXTRA_CA_CERTS).
 * Certificate checks are turned off only by an explicit `insecure: true`, which results then show.
 */
const tlsObject = z
  .strictObject(
    {
      /** A PEM file of CA certificates (a private CA, a self-hosted database), trusted in place of the system store. */
      caFile: described(
        z.optional(
          z.string({ error: 'must be the path of a PEM file of CA certificates' }).check(
            z.minLength(1, { error: 'must be the path of a PEM file of CA certificates' }),
            z.maxLength(INPUT_LIMITS.stringChars),
            z.refine((file) => file.trim() !== '', {
              error: 'must be the path of a PEM file of CA certificates',
            }),
          ),
        ),
        'PEM file of the CA certificates to trust for this target (a private CA, a self-hosted database), in place of the system store. A relative path is read from the folder of dbprobe.json.',
      ),
      /** Accept any certificate: the connection is encrypted but the server is not verified. */
      insecure: described(
        z.optional(trueOrFalse(' (true: accept any server certificate); leave it out to verify')),
        'true: accept any server certificate (encrypted, but the server is not verified). Results and reports say so on this target.',
      ),
      /** The highest TLS version to offer (a ceiling: the server may still pick a lower one). */
      maxVersion: described(
        z.optional(
          z.enum(TLS_MAX_VERSIONS, {
            error: `must be "1.2" or "1.3" (a string: the highest TLS version the client offers); leave it out for the client's default`,
          }),
        ),
        'The highest TLS version the client offers (a ceiling; the server may pick lower). "1.2" shows what TLS 1.3 saves: one round trip per new connection.',
      ),
    },
    { error: objectLike('{"caFile": "certs/ca.pem"}') },
  )
  .check(
    z.superRefine((tls, ctx) => {
      if (tls.insecure === true && tls.caFile !== undefined)
        ctx.issues.push({
          code: 'custom',
          input: tls,
          message:
            'caFile and insecure contradict each other: keep caFile to verify the server, or insecure to skip it',
        });
    }),
  );

type TlsFields = z.output<typeof tlsObject>;

/** `insecure: false` says what the default does: kept out, so a result shows only a choice made. */
export const targetTlsSchema = z.pipe(
  tlsObject,
  z.transform(({ insecure, ...rest }): TlsFields | undefined => {
    const tls = { ...rest, ...(insecure === true ? { insecure } : {}) };
    return Object.keys(tls).length > 0 ? tls : undefined;
  }),
);

/** How a fetch-based driver (neon-http, planetscale, upstash, libsql over http, http) speaks HTTP. */
export const targetHttpSchema = z.strictObject(
  {
    /** "2" and "1.1", and the numbers 2 and 1.1 a JSON file may hold for them. */
    version: described(
      z.pipe(
        z.literal(['1.1', '2', 1.1, 2], {
          error: (issue) =>
            issue.input === undefined
              ? `is required: "1.1" or "2"; leave "http" out for what Node's own fetch speaks (HTTP/1.1)`
              : `must be "1.1" (offer only http/1.1) or "2" (offer h2 in the TLS handshake) (got ${JSON.stringify(issue.input)})`,
        }),
        z.transform((version): HttpVersion => (String(version) === '2' ? '2' : '1.1')),
      ),
      '"2": offer h2 in the TLS handshake (ALPN) and speak HTTP/2 when the server picks it; needs an https: endpoint. "1.1": offer only http/1.1.',
    ),
  },
  { error: objectLike('{"version": "2"}') },
);

/** A target's fields as a user writes them in dbprobe.json or the `dbprobe.targets` setting. */
function targetShape(drivers: readonly string[]) {
  return {
    /** A label of its own, shown in every report. */
    name: described(
      z.string().check(
        z.trim(),
        z.regex(NAME_PATTERN, {
          error: 'must be 1-64 letters, digits, spaces or ._:/@()- and start with a letter or digit',
        }),
      ),
      'Unique label shown in reports.',
    ),
    driver: described(
      z.enum(drivers as [string, ...string[]], {
        error: (issue) =>
          `${typeof issue.input === 'string' && issue.input !== '' ? `unknown driver "${issue.input}"` : 'is required'}; use one of: ${drivers.join(', ')}`,
      }),
      'Driver id; `dbprobe drivers` lists them.',
    ),
    /** Where the connection string lives: `env:VAR` or `secret:NAME`, never the string itself. */
    connection: described(
      z.string({ error: 'must be a reference like "env:DATABASE_URL" or "secret:my-db"' }).check(
        z.maxLength(INPUT_LIMITS.connectionChars),
        z.regex(REFERENCE_PATTERN, {
          error: (issue) =>
            typeof issue.input === 'string' && issue.input.includes('://')
              ? 'looks like a literal connection string; put it in an environment variable and write "env:VAR_NAME" (or "secret:NAME" in VS Code) so it never sits in a file'
              : 'must be a reference like "env:DATABASE_URL" or "secret:my-db"',
        }),
      ),
      'Where the connection string lives: env:VAR or secret:NAME. Never a literal.',
    ),
    /** Custom workload; the driver's default (`SELECT 1`, `PING`, ...) when absent. */
    query: described(
      z.optional(
        z.string({ error: QUERY_TEXT }).check(
          z.minLength(1, { error: QUERY_TEXT }),
          z.maxLength(INPUT_LIMITS.queryChars),
          z.refine((query) => query.trim() !== '', { error: QUERY_TEXT }),
        ),
      ),
      'Workload of one sample; the driver default (SELECT 1, PING, {ping:1}) when absent.',
    ),
    /** Driver-specific options (e.g. neon-ws `pipelineConnect`). Never holds secrets. */
    options: described(
      z.optional(z.record(z.string(), z.unknown(), { error: 'must be an object of driver options' })),
      'Driver-specific options (never secrets).',
    ),
    /** How to make this target cold before each `cold` sample; needed only when `cold` is run. */
    cold: described(z.optional(coldTargetSchema), 'How to make this target cold before each cold sample.'),
    /** Whom to trust for this target's TLS; the connection string decides whether TLS is used. */
    tls: described(
      z.optional(targetTlsSchema),
      "Whom to trust for this target's TLS (the connection string decides whether TLS is used: sslmode=verify-full, rediss:, https:, wss:, tls=true). Without it: the system store plus NODE_EXTRA_CA_CERTS.",
    ),
    /** The HTTP version a fetch-based driver speaks; Node's own fetch's choice (HTTP/1.1) when absent. */
    http: described(
      z.optional(targetHttpSchema),
      "How a fetch-based driver (neon-http, planetscale, upstash, libsql over http(s), http) speaks HTTP. Without it: what Node's own fetch speaks, HTTP/1.1.",
    ),
    /** A workload preset instead of `query` (see workloadPresets.ts). */
    workload: described(
      z.optional(oneOf(WORKLOAD_PRESET_IDS as [WorkloadPresetId, ...WorkloadPresetId[]])),
      'A workload from the reference write-ups instead of query. All but select-1 create, seed and drop a scratch table, key or collection (dbprobe_scratch_...) and need allowWrites.',
    ),
    /**
     * Statements that are not read-only may run here (after a confirmation), and workload presets may
     * create, write and drop their scratch table, key or collection; refused when absent.
     */
    allowWrites: described(
      z.optional(trueOrFalse(' (false when left out)')),
      'Lets a statement that is not read-only (INSERT, UPDATE, SET...) run on this target, after a confirmation naming it, and lets workload presets create, write and drop their scratch table, key or collection. Off by default: a write probe repeats the write on every sample.',
    ),
    /**
     * Measure the workload through this ORM layer as well: the run gets the raw target under `name`
     * and the layered one under `name · orm`, interleaved (core/layerTwins.ts).
     */
    orm: described(
      z.optional(oneOf(ORM_LAYERS)),
      'Also measure the workload through this ORM layer, over the same driver and connection, beside the raw driver: the run gets this target raw and as "name · orm", interleaved, and states the layer\'s overhead (layer p50 - raw p50) with its interval. prisma: pg, planetscale, libsql; drizzle: pg, mysql2, neon-http, neon-ws, planetscale, libsql; kysely: pg, mysql2. The layer\'s package is loaded from your project.',
    ),
    /** Through `orm`, the workload as raw SQL (the default) or the layer's typed `SELECT 1`. */
    ormQuery: described(
      z.optional(oneOf(ORM_QUERY_PATHS)),
      "With orm: raw runs the workload through the layer's raw-SQL path; typed runs the layer's typed query builder's SELECT 1 (drizzle: db.select({ one: sql<number>`1` }) from a one-row derived table; kysely: db.selectNoFrom(sql<number>`1`.as('one'))) beside the driver's default SELECT 1, so it takes no query or workload. Not offered for prisma (its typed queries need the app's schema).",
    ),
  };
}

const QUERY_TEXT = 'must be a non-empty string, or left out for the driver default';

type TargetFields = z.output<z.ZodMiniObject<ReturnType<typeof targetShape>>>;

/** The rules between a target's fields: a workload or a query, a layer that runs over the driver. */
const targetRules = z.superRefine((target: TargetFields, ctx) => {
  const problem = (field: string, message: string) =>
    ctx.issues.push({ code: 'custom', path: [field], input: target, message });
  if (target.workload !== undefined) {
    if (target.query !== undefined) problem('workload', 'set either "workload" or "query", not both');
    if (WORKLOAD_PRESETS[target.workload].scratch && target.allowWrites !== true)
      problem(
        'workload',
        `"${target.workload}" creates, writes and drops a scratch table, key or collection (named dbprobe_scratch_...); add "allowWrites": true to this target to let it`,
      );
  }
  const orm = target.orm;
  if (orm !== undefined && !layerInfo(orm).drivers.includes(target.driver)) {
    const over = layersOver(target.driver);
    problem(
      'orm',
      `${orm} does not run over driver "${target.driver}" here (it runs over ${layerInfo(orm).drivers.join(', ')}); ${over.length > 0 ? `use one of ${over.join(', ')} for ${target.driver}` : `no layer runs over ${target.driver}: remove "orm"`}`,
    );
    return;
  }
  if (target.ormQuery === undefined) return;
  if (orm === undefined) {
    problem('ormQuery', 'applies to a target with "orm"; add "orm" or remove "ormQuery"');
    return;
  }
  if (target.ormQuery === 'raw') return;
  const info = layerInfo(orm);
  if (!info.typedQuery)
    problem(
      'ormQuery',
      `"typed" is not offered for ${orm}: ${info.noTypedQuery ?? 'it has no typed query here'}; use "raw"`,
    );
  else if (target.query !== undefined || target.workload !== undefined)
    problem(
      'ormQuery',
      `"typed" runs the layer's own SELECT 1 (${info.typedQuery}) beside the driver's default SELECT 1, so it takes no "query" or "workload"; remove them, or use "raw" to run your workload through the layer`,
    );
});

const TARGET_TEXT = objectLike('{"name": "local-pg", "driver": "pg", "connection": "env:DATABASE_URL"}');

/** A target as dbprobe.json and the editor's settings hold it. */
export function configTargetSchema(drivers: readonly string[]) {
  return z.strictObject(targetShape(drivers), { error: TARGET_TEXT }).check(targetRules);
}

/** A target as a plan carries it: the config's fields, and what a run's expansion adds. */
export function planTargetSchema(drivers: readonly string[]) {
  return z
    .strictObject(
      {
        ...targetShape(drivers),
        /** Set by the run's expansion, never by a user: the raw target this layered one is measured beside. */
        rawTwin: z.optional(z.string()),
      },
      { error: TARGET_TEXT },
    )
    .check(targetRules);
}

export type TargetSpec = z.output<ReturnType<typeof planTargetSchema>>;
export type TargetTls = TlsFields;
export type TargetHttp = z.output<typeof targetHttpSchema>;
