/**
 * The last pass of each test file, by fingerprint (scripts/test/fingerprint.ts), kept in the
 * checkout's own `test-results/passes.json` (ignored by git): a fresh clone has none, so its first
 * run runs everything. A later run of the slow phases (CLI, integration, end-to-end) leaves out a
 * file whose fingerprint matches its last pass, and says so; a file that failed, or whose inputs
 * changed, runs. Never under CI, and never with DBPROBE_TEST_ALL=1.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface Pass {
  fingerprint: string;
  /** ISO time the passing run ended. */
  passedAt: string;
  seconds: number;
}

/** Phases whose files may be left out when unchanged; unit files take seconds and always run. */
const REUSABLE_PHASES = new Set(['cli', 'integration', 'e2e']);

export function reusablePhase(phase: string): boolean {
  return REUSABLE_PHASES.has(phase);
}

/** Whether this run may leave out unchanged files, and if not, why (printed). */
export function reusePolicy(phase: string, env: NodeJS.ProcessEnv): { reuse: boolean; why: string } {
  const ci = env.CI !== undefined && env.CI !== '' && env.CI !== 'false' && env.CI !== '0';
  if (ci) return { reuse: false, why: `CI=${env.CI}: every file runs` };
  if (env.DBPROBE_TEST_ALL === '1') return { reuse: false, why: 'DBPROBE_TEST_ALL=1: every file runs' };
  if (!reusablePhase(phase)) return { reuse: false, why: `${phase} files always run` };
  return {
    reuse: true,
    why: 'files unchanged since they passed are not run again (DBPROBE_TEST_ALL=1 runs them)',
  };
}

export class PassLog {
  private readonly passes: Record<string, Pass>;

  constructor(private readonly file: string) {
    this.passes = PassLog.read(file);
  }

  /** The last pass of `test` if it was made with this fingerprint. */
  unchanged(test: string, fingerprint: string): Pass | undefined {
    const pass = this.passes[test];
    return pass?.fingerprint === fingerprint ? pass : undefined;
  }

  record(test: string, fingerprint: string, seconds: number): void {
    this.passes[test] = {
      fingerprint,
      passedAt: new Date().toISOString(),
      seconds: Math.round(seconds * 10) / 10,
    };
  }

  /** A file that failed (or was killed) keeps no pass, so the next run runs it. */
  forget(test: string): void {
    delete this.passes[test];
  }

  save(): void {
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    const temporary = `${this.file}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, `${JSON.stringify(this.passes, null, 2)}\n`);
    fs.renameSync(temporary, this.file);
  }

  private static read(file: string): Record<string, Pass> {
    try {
      const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
      return parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, Pass>) : {};
    } catch {
      return {};
    }
  }
}
