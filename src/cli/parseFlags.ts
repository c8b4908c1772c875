/**
 * Node's parseArgs, with the two answers it gets wrong for a command line of measurements:
 * - a flag that takes one value, given twice (`--out a.md --out b.md`), keeps the last one without a
 *   word: refused, naming both values;
 * - a negative number after a flag (`--iterations -5`) reads to parseArgs as another flag, and it
 *   answers "argument is ambiguous": the value is handed to the flag instead, so the flag's own check
 *   says what it accepts ("must be a whole number from 1 to ...").
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CliError } from './cliError';

type Options = NonNullable<ParseArgsConfig['options']>;

export function parseFlags<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  const options: Options = config.options ?? {};
  const args = negativeValuesJoined(config.args ?? [], options);
  const { tokens } = parseArgs({ ...config, args, tokens: true });
  refuseRepeats(tokens ?? [], options);
  return parseArgs({ ...config, args }) as ReturnType<typeof parseArgs<T>>;
}

/** `--flag -5` as `--flag=-5` for flags that take a value: parseArgs takes `-5` for a flag. */
function negativeValuesJoined(args: readonly string[], options: Options): string[] {
  const joined: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const next = args[i + 1];
    const name = longName(arg, options);
    if (arg === '--') {
      joined.push(...args.slice(i));
      break;
    }
    if (
      name !== undefined &&
      options[name]?.type === 'string' &&
      next !== undefined &&
      /^-\.?\d/.test(next)
    ) {
      joined.push(`--${name}=${next}`);
      i += 1;
      continue;
    }
    joined.push(arg);
  }
  return joined;
}

/** The long name of `--name` or of a short `-n`, when it is one of the options. */
function longName(arg: string, options: Options): string | undefined {
  if (/^--[^=]+$/.test(arg)) return arg.slice(2);
  if (/^-[A-Za-z]$/.test(arg))
    return Object.entries(options).find(([, option]) => option.short === arg.slice(1))?.[0];
  return undefined;
}

/** What refuseRepeats reads of parseArgs's tokens. */
type Tokens = readonly { kind: string; name?: string; value?: string | undefined }[];

function refuseRepeats(tokens: Tokens, options: Options): void {
  const given = new Map<string, string[]>();
  for (const token of tokens) {
    if (token.kind !== 'option' || token.name === undefined) continue;
    const option = options[token.name];
    if (!option || option.multiple || option.type !== 'string') continue;
    const values = given.get(token.name) ?? [];
    values.push(token.value ?? '');
    given.set(token.name, values);
  }
  for (const [name, values] of given) {
    if (values.length < 2) continue;
    throw new CliError(
      `--${name} is given ${values.length} times (${values.map((v) => JSON.stringify(v)).join(', ')}) and takes one value: keep the one you mean (the last one would win without a word)`,
    );
  }
}
