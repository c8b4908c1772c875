/**
 * The smallest difference a user wants named (`--min-effect 5%`, `--min-effect 0.2ms`, the
 * `dbprobe.minEffect` setting): a share of the faster figure or a fixed amount. None by default: the
 * run's own intervals decide what is established; this only keeps what the user calls too small to
 * matter from being named, on every surface alike.
 */
import { ms } from '../units';

export type MinEffect = { share: number } | { us: number };

/** The minimum at two figures (µs), or undefined when none is set. */
export function minEffectUs(effect: MinEffect | undefined, aUs: number, bUs: number): number | undefined {
  if (!effect) return undefined;
  return 'share' in effect ? effect.share * Math.min(aUs, bUs) : effect.us;
}

export function minEffectText(effect: MinEffect): string {
  return 'share' in effect ? `${Math.round(effect.share * 1000) / 10}% of the faster` : `${ms(effect.us)} ms`;
}

/** The largest share or amount accepted: beyond them no difference could ever be named. */
const MAX_SHARE = 10;
const MAX_US = 3_600_000_000;

/**
 * Reads "5%", "0.05" is refused (ambiguous), "200us", "0.2ms", "1s". Returns the effect, or a sentence
 * saying what is wrong and what to write.
 */
export function parseMinEffect(text: string): MinEffect | string {
  const trimmed = text.trim();
  if (trimmed.length > 40) return 'is too long: write a share like 5% or an amount like 0.5ms';
  const match = /^(\d+(?:\.\d+)?)\s*(%|us|µs|ms|s)$/.exec(trimmed);
  if (!match) return `"${trimmed}" is not a share (5%) or an amount (0.5ms, 200us, 1s)`;
  const value = Number(match[1]);
  const unit = match[2]!;
  if (unit === '%') {
    const share = value / 100;
    return share > MAX_SHARE ? `${trimmed} is more than ${MAX_SHARE * 100}%` : { share };
  }
  const us = value * (unit === 's' ? 1_000_000 : unit === 'ms' ? 1_000 : 1);
  if (us < 1) return `${trimmed} is below the clock's 1 µs resolution`;
  return us > MAX_US ? `${trimmed} is more than an hour` : { us };
}
